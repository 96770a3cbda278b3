import JSON
import SystemIO

/// The receiver's own position, from the receiver.json readsb and dump1090
/// write beside aircraft.json: the kiosk's station when its configuration
/// names none. Its lat and lon are optional (set by the receiver's --lat and
/// --lon, or PiAware's location): their absence is said plainly.
public enum ReceiverLocation {
    /// The station in the receiver.json next to `aircraftJSON`.
    public static func station(besideAircraftJSON aircraftJSON: String) throws -> GeoPoint {
        let directory = aircraftJSON.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let path = (directory.isEmpty ? "." : directory) + "/receiver.json"
        let text: String
        do { text = try FileContents.text(path, limit: 1 << 16) } catch {
            throw ReceiverLocationError("\(error)")
        }
        guard let object = (try? JSONParser.parse(text))?.objectValue else {
            throw ReceiverLocationError("\(path): not a JSON object")
        }
        guard let rawLatitude = object["lat"]?.doubleValue, let rawLongitude = object["lon"]?.doubleValue else {
            throw ReceiverLocationError("\(path) has no lat and lon (the receiver was started without its location)")
        }
        // A position that is not one (1e999 reads as infinity) is named, not taken for a missing one.
        guard let lat = Plausible.number(rawLatitude, in: -90...90) else {
            throw ReceiverLocationError("\(path): lat \(rawLatitude) is not a latitude (expected -90...90)")
        }
        guard let lon = Plausible.number(rawLongitude, in: -180...180) else {
            throw ReceiverLocationError("\(path): lon \(rawLongitude) is not a longitude (expected -180...180)")
        }
        return GeoPoint(latitude: lat, longitude: lon)
    }
}

/// Why the receiver's location could not be read, naming the file.
public struct ReceiverLocationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
