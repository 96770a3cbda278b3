#if canImport(Glibc)
import Glibc
#endif

/// One line on standard error, for what the display layer reports on its own
/// (the app's logger lives above it): a refused plane rotation, a failed
/// switch-off, uevents when debugging hotplug.
func printError(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
