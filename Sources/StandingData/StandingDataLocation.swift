#if canImport(Glibc)
import Glibc
#endif
import SystemIO

extension StandingData {
    /// The file's name wherever it is installed.
    public static let fileName = "standing-data.rksd"

    /// Where the file may be: the configured path, $RADAR_KIOSK_DATA, the
    /// install prefix next to the binary (../share/radar-kiosk), the source
    /// tree when run from .build (../../Data), and the system's share directories.
    public static func searchPaths(preferred: String?) -> [String] {
        var paths: [String] = []
        if let preferred { paths.append(preferred) }
        if let env = getenv("RADAR_KIOSK_DATA") { paths.append(String(cString: env) + "/" + fileName) }
        if let exe = Executable.directory {
            paths.append(exe + "/../share/radar-kiosk/" + fileName)
            paths.append(exe + "/../../Data/" + fileName)
            paths.append(exe + "/../../../Data/" + fileName)
        }
        paths += ["/usr/local/share/radar-kiosk/" + fileName, "/usr/share/radar-kiosk/" + fileName, "Data/" + fileName]
        return paths
    }

    /// The first file found along `searchPaths`, opened; an error naming every path tried when none is.
    public static func locate(preferred: String? = nil) throws -> StandingData {
        if let preferred { return try StandingData(path: preferred) }
        let paths = searchPaths(preferred: nil)
        for path in paths where access(path, R_OK) == 0 { return try StandingData(path: path) }
        throw StandingDataError("\(fileName) not found; tried: \(paths.joined(separator: ", "))")
    }
}
