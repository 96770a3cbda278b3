import CLinux

/// The processors this process may run on (its CPU affinity), at least 1:
/// what `render.threads = auto` shares whole frames out to.
public enum Processors {
    public static var available: Int { Int(radar_available_processors()) }
}
