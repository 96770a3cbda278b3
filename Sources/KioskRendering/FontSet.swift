#if canImport(Glibc)
import Glibc
#endif
import SystemIO
import Typography

/// The kiosk's three faces (B612 Regular and Bold, B612 Mono), found in the
/// configured directory, the install prefix or the source tree.
public final class FontSet {
    public let library: FontLibrary
    public let regular: FontFace
    public let bold: FontFace
    public let mono: FontFace

    public static let fileNames = (regular: "B612-Regular.otf", bold: "B612-Bold.otf", mono: "B612Mono-Regular.otf")

    /// `directory` (from the config or `--fonts`) is tried first.
    public init(directory: String? = nil) throws {
        library = try FontLibrary()
        let dirs = FontSet.searchDirectories(preferred: directory)
        regular = try library.face(at: FontLibrary.locate(Self.fileNames.regular, in: dirs))
        bold = try library.face(at: FontLibrary.locate(Self.fileNames.bold, in: dirs))
        mono = try library.face(at: FontLibrary.locate(Self.fileNames.mono, in: dirs))
    }

    /// The same three faces again, loaded into a FreeType library of their
    /// own: for a renderer on another thread (a FreeType library and its
    /// faces are used by one thread at a time).
    public init(sameFilesAs other: FontSet) throws {
        library = try FontLibrary()
        regular = try library.face(at: other.regular.path)
        bold = try library.face(at: other.bold.path)
        mono = try library.face(at: other.mono.path)
    }

    /// Where fonts may be: the preferred directory, $RADAR_KIOSK_FONTS, the
    /// install prefix next to the binary (../share/radar-kiosk/fonts), the source
    /// tree when run from .build (../../Fonts), ./Fonts, and Debian's fonts-b612
    /// (the same files; the Debian package depends on it instead of copying them).
    public static func searchDirectories(preferred: String?) -> [String] {
        var dirs: [String] = []
        if let preferred { dirs.append(preferred) }
        if let env = getenv("RADAR_KIOSK_FONTS") { dirs.append(String(cString: env)) }
        if let exe = Executable.directory {
            dirs.append(exe + "/../share/radar-kiosk/fonts")
            dirs.append(exe + "/../../Fonts")
            dirs.append(exe + "/../../../Fonts")
        }
        dirs.append("/usr/local/share/radar-kiosk/fonts")
        dirs.append("/usr/share/radar-kiosk/fonts")
        dirs.append("Fonts")
        dirs.append("/usr/share/fonts/opentype/b612")
        return dirs
    }
}
