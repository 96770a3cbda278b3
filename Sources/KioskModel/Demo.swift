/// The built-in demo: an overflight, numbers updating, a second aircraft
/// replacing the first, back to standby, and a change of mind mid-glide.
public enum Demo {
    /// The demo's first aircraft, also the sample for renders, audits and benchmarks.
    public static let sampleAircraft = Aircraft(callsign: "BAW283", type: "B789", route: "LHR → LAX", airline: "British Airways",
                                                model: "Boeing 787-9 Dreamliner",
                                                journey: Journey(flownNM: 612, toGoNM: 4118, destinationCity: "Los Angeles"), altitudeFeet: 36_000,
                                                groundSpeedKnots: 487, distanceNM: 3.2, bearingDegrees: 274)
    public static let sampleOverflight = KioskState(mode: .overflight, aircraft: sampleAircraft)

    public static let script: [TimedCommand] = {
        // Names as the shipped standing data gives them.
        let names = ["B789": ("British Airways", "Boeing 787-9 Dreamliner"), "A20N": ("Lufthansa", "Airbus A-320neo"),
                     "A319": ("easyJet", "Airbus A-319")]
        func over(_ callsign: String, _ type: String, _ route: String, _ alt: Int, _ gs: Int, _ dist: Double, _ brg: Double) -> KioskCommand {
            .set(KioskState(mode: .overflight, aircraft: Aircraft(callsign: callsign, type: type, route: route, airline: names[type]?.0,
                                                                  model: names[type]?.1, altitudeFeet: alt,
                                                                  groundSpeedKnots: gs, distanceNM: dist, bearingDegrees: brg)))
        }
        return [
            TimedCommand(at: 0, command: .set(.standby)),
            TimedCommand(at: 2.0, command: .set(sampleOverflight)),
            TimedCommand(at: 4.5, command: over("BAW283", "B789", "LHR → LAX", 36_500, 489, 2.8, 281)),
            TimedCommand(at: 6.5, command: over("BAW283", "B789", "LHR → LAX", 37_000, 492, 2.1, 290)),
            TimedCommand(at: 8.5, command: over("DLH4AB", "A20N", "FRA → MAN", 9_750, 312, 4.6, 118)),
            TimedCommand(at: 10.5, command: over("DLH4AB", "A20N", "FRA → MAN", 10_000, 318, 3.9, 126)),
            TimedCommand(at: 12.5, command: .set(.standby)),
            TimedCommand(at: 15.0, command: over("EZY81QK", "A319", "BFS → LGW", 8_200, 286, 2.4, 40)),
            // A change of mind mid-glide: the spring retargets without a jump.
            TimedCommand(at: 15.35, command: .set(.standby)),
        ]
    }()

    /// The demo's aircraft, for keys that ask for one.
    public static let aircraft: [Aircraft] = script.compactMap { entry in
        if case let .set(state) = entry.command { return state.aircraft } else { return nil }
    }.reduce(into: [Aircraft]()) { list, a in if !list.contains(where: { $0.callsign == a.callsign }) { list.append(a) } }

    /// Seconds the demo runs: the last command plus time for it to settle.
    public static let duration = 18.0
}
