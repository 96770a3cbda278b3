#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Feed

/// One aircraft on the dial for one frame.
public struct TrafficBlip: Equatable, Sendable {
    /// Where it is on the dial as drawn, in fractions of its radius: x to the
    /// right, y up (1 is the rim). Up is the dial's facing (north unless turned).
    public var x: Double
    public var y: Double
    /// Fading in when it appears, out when it goes.
    public var opacity: Double
    /// The aircraft the card shows.
    public var highlighted: Bool
    /// Which aircraft it is: the same number for the same aircraft while it stays around.
    public var serial: Int
}

/// The aircraft around the station as the dial shows them. Each keeps its
/// identity by its ICAO address (a blip never passes from one aircraft to
/// another), moves on between feed updates along its track at its speed,
/// and when a new position arrives glides onto the new course over a
/// second instead of jumping; blips fade in and out. The range steps to
/// fit the traffic (or is fixed) and changes by gliding too. Sampling
/// allocates nothing while the range stands: a frame reads `blips`, filled
/// in place (a gliding range's ring labels are new strings each frame).
public final class TrafficPicture {
    /// The ranges the dial steps through, NM, for the rings to be whole numbers
    /// in `unit` (1/2/3, 2/4/6, 5/10/15, 10/20/30 NM or mi; 2/4/6, 4/8/12, 10/20/30, 20/40/60 km).
    public static func rangeSteps(_ unit: DisplayUnits.Distance) -> [Double] {
        (unit == .kilometres ? [8.0, 16, 40, 80] : [4.0, 8, 20, 40]).map { $0 / unit.perNauticalMile }
    }

    /// The steps in this picture's unit.
    public var rangeSteps: [Double] { Self.rangeSteps(distanceUnit) }

    /// The unit the rings are labelled in: the card's.
    public var distanceUnit = DisplayUnits.Distance.nauticalMiles {
        didSet {
            guard distanceUnit != oldValue else { return }
            // The range kept, or the unit's step nearest it; set before anything is shown: no glide.
            if fixedRangeNM == nil { rangeTo = rangeSteps.min { abs($0 - rangeTo) < abs($1 - rangeTo) }! }
            rangeFrom = rangeTo
            relabel()
        }
    }

    /// The three inner rings' labels for a range (NM) in `unit`, the unit on
    /// the outermost: ("5", "10", "15 NM"). `gliding`: a range on its way
    /// from one step to another, to within half a percent (two decimals under
    /// 10, one under 100), so that the labels say the scale the blips are at.
    public static func ringLabels(rangeNM: Double, unit: DisplayUnits.Distance, gliding: Bool = false) -> (String, String, String) {
        func label(_ quarters: Double) -> String {
            let exact = rangeNM * unit.perNauticalMile * quarters / 4
            let places = gliding ? (exact < 10 ? 100.0 : exact < 100 ? 10 : 1) : 10
            let v = (exact * places).rounded() / places
            return v == v.rounded() ? String(Int(v)) : String(v)
        }
        return (label(1), label(2), label(3) + " " + unit.symbol)
    }
    /// A fixed range (NM) instead of stepping, when configured.
    public private(set) var fixedRangeNM: Double?
    /// How long a blip takes to glide onto a corrected course.
    public var blendSeconds = 1.0
    public var fadeSeconds = 0.4
    /// How long the range takes to change.
    public var rangeChangeSeconds = 0.8
    /// At most this many aircraft are drawn (the nearest).
    public let maximumBlips = 64
    /// A position this far from where the blip is drawn is a jump (a bad fix
    /// or a new position after a gap): the blip moves there at once.
    public var snapDistanceNM = 3.0

    private struct Track {
        var hex: String
        var name: String
        /// The course since the last fix: position (NM east, north of the station) at `fixTime`, velocity NM/s.
        var east: Double, north: Double, vEast: Double, vNorth: Double
        var fixTime: Double
        /// Where the last course had it at `fixTime` minus where the new one does: faded out over `blendSeconds`.
        var offsetEast = 0.0, offsetNorth = 0.0
        var appeared: Double
        var gone: Double?
        var serial: Int
    }
    private var serials = 0

    private var tracks: [Track] = []
    /// The airports around the station (the controller's, from the standing data).
    public var airports: [DialAirport] = [] {
        didSet { airportMarks.reserveCapacity(airports.count) }
    }
    /// Where the airports inside the dial are drawn at the last `sample`.
    public private(set) var airportMarks: [DialAirportMark] = []

    /// The blips of the last `sample`, nearest first.
    public private(set) var blips: [TrafficBlip] = []
    /// The name shown on the card: its blip is highlighted.
    public var highlightedName: String?
    /// The compass bearing at the top of the dial: blips turn with it.
    public var facingDegrees = 0.0
    /// The distance of the aircraft the card shows: the range then fits it
    /// and the nearest few others (`overflightNeighbours`), which the still
    /// face keeps, dimmed, around its marker.
    public var focusDistanceNM: Double?
    /// How many aircraft besides the card's the overflight's range keeps on
    /// the dial: enough to see what is around it, few enough that the dial
    /// still closes in on an aircraft overhead.
    public static let overflightNeighbours = 4
    /// The nearest tracks' distances, nearest first (`chooseRange`'s, kept to reuse its storage).
    private var nearest: [Double] = []

    private var rangeFrom = 20.0, rangeTo = 20.0, rangeChanged = -Double.infinity
    /// The range the rings are labelled for (the one the dial is going to).
    public var rangeNM: Double { rangeTo }
    /// The three inner rings' ranges as labels ("5", "10", "15 NM" at 20 NM):
    /// the range going to, and while it glides (from `sample`) the range the
    /// blips are drawn at in that frame, never one snapped while the other glides.
    public private(set) var rangeLabels = ("5", "10", "15 NM")
    /// Whether `rangeLabels` are a gliding range's.
    private var labelsGlide = false
    /// The largest range: aircraft beyond it are not tracked.
    public var maximumRangeNM: Double { fixedRangeNM ?? rangeSteps[rangeSteps.count - 1] }

    private func relabel() { rangeLabels = Self.ringLabels(rangeNM: rangeTo, unit: distanceUnit) }

    public init() {
        nearest.reserveCapacity(Self.overflightNeighbours + 1)
        tracks.reserveCapacity(maximumBlips)
        blips.reserveCapacity(maximumBlips)
    }

    /// Whether anything is drawn or fading.
    public var isEmpty: Bool { tracks.isEmpty }

    /// The ICAO address of the aircraft a blip stands for (what a tap on it chose).
    public func address(ofSerial serial: Int) -> String? { tracks.first { $0.serial == serial }?.hex }

    /// Positions from a snapshot that arrived at `time` (an empty list when
    /// the receiver is unavailable: every blip fades out): each aircraft's
    /// course starts again from its new position, continuing from where its
    /// blip is; new aircraft fade in, missing ones fade out.
    public func update(_ seen: [OverheadSelector.Choice], at time: Double) {
        for i in tracks.indices where tracks[i].gone == nil { tracks[i].gone = time }
        for choice in seen.prefix(maximumBlips) {
            let r = choice.report
            let bearing = choice.bearingDegrees * .pi / 180
            let east = choice.distanceNM * sin(bearing), north = choice.distanceNM * cos(bearing)
            var vEast = 0.0, vNorth = 0.0
            if !r.onGround, let knots = r.groundSpeedKnots, let track = r.trackDegrees {
                vEast = knots / 3600 * sin(track * .pi / 180)
                vNorth = knots / 3600 * cos(track * .pi / 180)
            }
            if let i = tracks.firstIndex(where: { $0.hex == r.hex }) {
                let was = position(tracks[i], at: time)
                var t = tracks[i]
                let dx = was.east - east, dy = was.north - north
                let jump = dx * dx + dy * dy > snapDistanceNM * snapDistanceNM || t.gone.map { time - $0 > fadeSeconds } == true
                (t.east, t.north, t.vEast, t.vNorth, t.fixTime) = (east, north, vEast, vNorth, time)
                (t.offsetEast, t.offsetNorth) = jump ? (0, 0) : (dx, dy)
                if t.gone.map({ time - $0 > fadeSeconds }) == true { t.appeared = time }
                t.gone = nil
                t.name = r.displayName
                tracks[i] = t
            } else if tracks.count < maximumBlips * 2 {
                serials += 1
                tracks.append(Track(hex: r.hex, name: r.displayName, east: east, north: north, vEast: vEast, vNorth: vNorth,
                                    fixTime: time, appeared: time, serial: serials))
            }
        }
        tracks.removeAll { $0.gone.map { time - $0 >= fadeSeconds } ?? false }
        chooseRange(at: time)
    }

    /// Where a track's blip is at `time`, NM east and north of the station.
    private func position(_ t: Track, at time: Double) -> (east: Double, north: Double) {
        // Carried forward at most 15 s past the last fix: a silent aircraft is not flown on for ever.
        let dt = min(max(time - t.fixTime, 0), 15)
        let u = min(dt / blendSeconds, 1)
        let remaining = 1 - u * u * (3 - 2 * u)
        return (t.east + t.vEast * dt + t.offsetEast * remaining, t.north + t.vNorth * dt + t.offsetNorth * remaining)
    }

    /// The range in use at `time` (gliding between steps).
    public func displayedRangeNM(at time: Double) -> Double {
        let u = min(max((time - rangeChanged) / rangeChangeSeconds, 0), 1)
        let eased = u * u * (3 - 2 * u)
        return rangeFrom + (rangeTo - rangeFrom) * eased
    }

    /// Whether the range is changing at `time` (the rings' labels and every blip move).
    public func rangeIsChanging(at time: Double) -> Bool { time - rangeChanged < rangeChangeSeconds }

    /// The smallest step holding every aircraft (in an overflight, the
    /// card's and its nearest neighbours); a step down only once they all
    /// fit well inside it.
    private func chooseRange(at time: Double) {
        var next = fixedRangeNM ?? rangeTo
        if fixedRangeNM == nil {
            var farthest = 0.0
            if let focusDistanceNM {
                // The card's aircraft is among the tracks: one more than its neighbours.
                nearest.removeAll(keepingCapacity: true)
                for t in tracks where t.gone == nil {
                    let d = (t.east * t.east + t.north * t.north).squareRoot()
                    guard nearest.count <= Self.overflightNeighbours || d < nearest[nearest.count - 1] else { continue }
                    if nearest.count > Self.overflightNeighbours { nearest.removeLast() }
                    nearest.insert(d, at: nearest.firstIndex { $0 > d } ?? nearest.count)
                }
                farthest = max(focusDistanceNM, nearest.last ?? 0)
            } else {
                for t in tracks where t.gone == nil { farthest = max(farthest, (t.east * t.east + t.north * t.north).squareRoot()) }
            }
            let steps = rangeSteps
            let fitting = steps.first { farthest <= 0.95 * $0 } ?? steps[steps.count - 1]
            if fitting > rangeTo {
                next = fitting
            } else if fitting < rangeTo, farthest <= 0.8 * fitting {
                next = fitting
            }
        }
        guard next != rangeTo else { return }
        rangeFrom = displayedRangeNM(at: time)
        rangeTo = next
        rangeChanged = time
        relabel()
    }

    /// Sets a fixed range (NM), or stepping with the traffic when nil.
    public func setFixedRange(_ range: Double?, at time: Double) {
        fixedRangeNM = range
        chooseRange(at: time)
        // Set before anything is shown: no glide to it.
        rangeFrom = rangeTo
        rangeChanged = -Double.infinity
    }

    /// Fills `blips` for `time`, nearest first is not kept: the order is the tracks'.
    public func sample(at time: Double) {
        blips.removeAll(keepingCapacity: true)
        let range = displayedRangeNM(at: time)
        if rangeIsChanging(at: time) {
            rangeLabels = Self.ringLabels(rangeNM: range, unit: distanceUnit, gliding: true)
            labelsGlide = true
        } else if labelsGlide {
            relabel()
            labelsGlide = false
        }
        // Turned by the facing: a bearing b is drawn at b - facing.
        let turn = facingDegrees * .pi / 180
        let c = cos(turn) / range, s = sin(turn) / range
        // The airports, placed by the same range and facing as the blips: they glide together.
        airportMarks.removeAll(keepingCapacity: true)
        for (i, a) in airports.enumerated() {
            let x = a.east * c - a.north * s, y = a.north * c + a.east * s
            if x * x + y * y <= 0.95 * 0.95 { airportMarks.append(DialAirportMark(x: x, y: y, index: i)) }
        }
        for t in tracks where blips.count < maximumBlips {
            let p = position(t, at: time)
            let x = p.east * c - p.north * s, y = p.north * c + p.east * s
            guard x * x + y * y <= 1.0 else { continue }
            var opacity = min(max((time - t.appeared) / fadeSeconds, 0), 1)
            if let gone = t.gone { opacity *= max(0, 1 - (time - gone) / fadeSeconds) }
            guard opacity > 0 else { continue }
            blips.append(TrafficBlip(x: x, y: y, opacity: opacity, highlighted: t.name == highlightedName && highlightedName != nil, serial: t.serial))
        }
    }
}
