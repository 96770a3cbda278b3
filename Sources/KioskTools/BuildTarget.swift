/// The CPU the binary was compiled for, as `scripts/build` names it
/// (RADAR_KIOSK_CPU: generic, nehalem for SSE4.2, haswell for AVX2), so that
/// benchmark results say which build they time. A build made without that
/// script (plain `swift build`) is the compiler's default for the
/// architecture: generic.
public enum BuildTarget {
    public static var cpu: String {
        #if RADAR_CPU_HASWELL
        return "haswell"
        #elseif RADAR_CPU_NEHALEM
        return "nehalem"
        #elseif RADAR_CPU_NATIVE
        return "native"
        #elseif RADAR_CPU_OTHER
        return "other"
        #else
        return "generic"
        #endif
    }

    public static var architecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "aarch64"
        #else
        return "other"
        #endif
    }

    /// " cpu=x86_64-haswell": the RESULT lines' last field.
    public static var resultField: String { " cpu=\(architecture)-\(cpu)" }
}
