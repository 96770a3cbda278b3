/// The release this binary is, as the Debian package names it: kept equal to
/// the top entry of Packaging/debian/changelog (the command-line tests check).
public enum RadarKioskVersion {
    public static let string = "0.9.0"
}
