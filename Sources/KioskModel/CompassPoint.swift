/// The sixteen points of the compass, for reading a bearing from the
/// configuration ("NE") and for saying one on the card.
public enum CompassPoint {
    /// N, NNE, NE, … NNW: each 22.5° on from the last.
    public static let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    /// The bearing of a point's name (upper case), nil for anything else.
    public static func bearing(named name: String) -> Double? {
        names.firstIndex(of: name).map { Double($0) * 22.5 }
    }

    /// The nearest of the eight principal points (N, NE, E, …) to `bearing` degrees.
    public static func eightPointName(for bearing: Double) -> String {
        names[2 * eighth(of: bearing)]
    }

    /// Which eighth of the circle `bearing` is nearest: 0 is north, 1 north-east, …
    static func eighth(of bearing: Double) -> Int {
        let turned = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return Int((turned / 45).rounded()) % 8
    }
}
