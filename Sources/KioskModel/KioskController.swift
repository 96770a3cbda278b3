import AnimationCore
import Feed
import Input
import SystemIO

/// Every decision of the kiosk in one place: which state each input leads to
/// (keys, GPIO, commands, the feed, the display coming and going), under
/// which transaction it is applied, and whether a frame must be drawn. It
/// owns the state and the traffic; each output shows them through a view of
/// its own (`KioskView`: its layout, animated scene and sweep), the first of
/// them `view`. It needs no display, device or clock: times are passed in,
/// so a test can drive it.
public final class KioskController {
    public private(set) var state: KioskState
    /// The aircraft the card shows (kept through standby while the card fades).
    public private(set) var shownAircraft: Aircraft?
    /// The aircraft whose numbers the card's rows show: the shown one's as
    /// they were when they last rolled. A feed brings new numbers every
    /// second; rolled each time, one row or another would be mid-roll half
    /// the time. They roll together, at most once every `rollInterval`; the
    /// aircraft's mark on the dial follows every update.
    public private(set) var cardNumbers: Aircraft?
    /// How often, at most, the card's numbers roll on a feed's updates (0: at each).
    public var rollInterval = KioskController.defaultRollInterval
    public static let defaultRollInterval = 7.0
    /// When the card's numbers last rolled.
    private var lastRoll = -Double.infinity
    /// When the held numbers roll, while some are held (the loop asks every turn: kept, not worked out).
    private var heldRollDue: Double?
    /// When the last overflight began and ended (a card that never came in is not faded out).
    public private(set) var overflightBegan: Double?
    public private(set) var overflightEnded: Double?
    /// One view per output, the first output's first.
    public private(set) var views: [KioskView] = []
    /// The first output's view: the only one on a kiosk with one screen.
    public var view: KioskView { views[0] }
    /// The first output's layout.
    public var layout: KioskLayout { view.layout }

    /// Key code → action.
    public var keyMap: [UInt16: KeyAction] = [:]
    /// A bouncing switch or a mashed key makes at most one change per window (seconds).
    public var keyDebounce = 0.2
    /// Whether the quit key stops the kiosk (run by hand; never under systemd).
    public var keysMayQuit = true
    /// The live feed's interpretation, when there is a feed. Its station and
    /// standing data place the dial's airports.
    public var feed: FeedInterpreter? {
        didSet { placeAirports() }
    }
    private var lastKeyAction = -Double.infinity
    /// Whether the screen is on, and how bright: the schedule, "on only while
    /// overhead", wakes and overrides.
    public var screen = ScreenPolicy()
    /// What the GPIO input line does: show OVERFLIGHT while active, or wake the screen.
    public var gpioAction = GPIOAction.overflight
    /// The aircraft around, as blips on the sweeping dial.
    public let traffic = TrafficPicture()
    /// Whether the dial shows the traffic (with a feed).
    public var showsTraffic = true
    /// The credit the feed's terms ask for (an aggregator's), shown in standby.
    public let attribution: String?
    private var trafficSnapshots = 0
    /// Maps the touchscreen's fractions onto the first output's frame.
    public var touchMapping = TouchMapping()
    /// How long a card chosen by touch stays before standby, s.
    public var touchLingerSeconds = 30.0
    private var gestures: TouchGestures?
    /// Until when the card of an aircraft chosen by touch stays (nil: none is chosen).
    public private(set) var selectionUntil: Double?

    /// The compass bearing at the top of every dial (`station.facing_deg`):
    /// the view out of the window the kiosk stands by. Nil is north up, with
    /// directions on the card as compass points rather than "ahead" or "left".
    public private(set) var facing: Double?
    /// The ground's height at the station above sea level, ft (where to look counts from it).
    public private(set) var stationElevationFeet = 0.0
    /// The bearing at the top of the dial, 0 for north up.
    public var facingDegrees: Double { facing ?? 0 }

    /// Turns the dials to `facing` at once (a turn that glided would go the
    /// long way round and leave the blips behind), and counts the card's
    /// angles above the horizon from `elevationFeet`.
    public func setStationView(facing: Double?, elevationFeet: Double, at time: Double) {
        guard facing != self.facing || elevationFeet != stationElevationFeet else { return }
        self.facing = facing
        stationElevationFeet = elevationFeet
        traffic.facingDegrees = facingDegrees
        var transaction = Transaction()
        transaction.disablesAnimations = true
        for view in views { view.showState(transaction: transaction, at: time) }
        requestRepaint()
    }

    /// What standby's corner says: the clock and today's overflights.
    public private(set) var standbyInfo = StandbyInfo.none

    /// Shows `info` in standby's corner, at once (no transition: it changes at the minute).
    public func setStandbyInfo(_ info: StandbyInfo, at time: Double) {
        guard info != standbyInfo else { return }
        standbyInfo = info
        var transaction = Transaction()
        transaction.disablesAnimations = true
        for view in views { view.showState(transaction: transaction, at: time) }
    }

    /// The range the dial's rings stand for, NM: the traffic's, or the fixed 20.
    public var dialRangeNM: Double { showsTraffic ? traffic.rangeNM : Self.fixedDialRangeNM(units.distance) }

    /// The dial's range without the traffic: 20 NM or mi, 40 km (rings 5/10/15 or 10/20/30).
    static func fixedDialRangeNM(_ unit: DisplayUnits.Distance) -> Double { TrafficPicture.rangeSteps(unit)[2] }

    /// The rings' labels as drawn now, in the card's unit (read every frame: nothing is built for it).
    public var ringLabels: (String, String, String) { showsTraffic ? traffic.rangeLabels : fixedRingLabels }
    private let fixedRingLabels: (String, String, String)

    /// How standby's dial sweeps: its look, speed and brightness.
    public private(set) var sweep = SweepSettings()

    /// Whether the feed is down (its data failed or went stale, and it is
    /// retrying): standby then says NO DATA and the dial stops sweeping,
    /// rather than looking like an empty sky.
    public var feedIsDown: Bool { feed?.note != nil }

    /// Whether standby's sweep turns now: in standby, with a sweep, and data coming.
    var sweepRuns: Bool { state.mode == .standby && sweep.sweeps && !feedIsDown }

    /// Whether the dial marks the airports around the station (`traffic.airports`).
    public var showsAirports = true

    /// Finds the airports around the feed's station for the dial, from the
    /// feed's standing data: at start, and when a reload may have moved the
    /// station or changed the setting. Out to the widest range the dial can
    /// take, so a change of range finds them already placed.
    public func placeAirports() {
        var airports: [DialAirport] = []
        if showsAirports, showsTraffic, let feed, let data = feed.identity.standingData {
            let reach = max(traffic.maximumRangeNM, traffic.rangeSteps[traffic.rangeSteps.count - 1])
            airports = DialAirport.around(feed.selector.settings.station, in: data, within: reach)
        }
        guard airports != traffic.airports else { return }
        traffic.airports = airports
        requestRepaint()
    }

    /// Sweeps as `settings` say from `time` (at start, or a reload).
    public func setSweep(_ settings: SweepSettings, at time: Double) {
        guard settings != sweep else { return }
        sweep = settings
        for view in views { view.sweepChanged(at: time) }
    }

    /// Fits the card's lines to its width (the renderer); without it, a character budget.
    public let measure: TextMeasuring?
    /// The units of the card's numbers.
    public let units: DisplayUnits

    public init(layout: KioskLayout, initial: KioskState = .standby, at time: Double = 0, measure: TextMeasuring? = nil,
                units: DisplayUnits = DisplayUnits(), attribution: String? = nil) {
        self.measure = measure
        self.units = units
        traffic.distanceUnit = units.distance
        fixedRingLabels = TrafficPicture.ringLabels(rangeNM: Self.fixedDialRangeNM(units.distance), unit: units.distance)
        self.attribution = attribution
        state = initial
        shownAircraft = initial.aircraft
        cardNumbers = initial.aircraft
        views = [KioskView(controller: self, layout: layout, at: time)]
    }

    /// A view for another output, laid out for it and showing the state as it is now.
    public func addView(layout: KioskLayout, at time: Double) -> KioskView {
        let view = KioskView(controller: self, layout: layout, at: time)
        views.append(view)
        return view
    }

    // MARK: inputs

    /// What the kiosk should do after an event, besides the state change.
    public struct Response: Equatable {
        /// The answer to a command line, for its sender.
        public var reply: String?
        /// Lines for the log.
        public var log: [String] = []
        /// A screenshot was asked for, to this path; the reply follows it.
        public var screenshotPath: String?
        /// The kiosk should stop (the quit key, run by hand).
        public var quit = false

        public init(reply: String? = nil, log: [String] = [], screenshotPath: String? = nil, quit: Bool = false) {
            self.reply = reply
            self.log = log
            self.screenshotPath = screenshotPath
            self.quit = quit
        }
    }

    /// Turns one event into a state change and what else should follow.
    public func handle(_ event: KioskEvent, at time: Double) -> Response {
        switch event {
        case let .key(code, from):
            return handleKey(code, from: from, at: time)
        case let .touch(touch):
            return handleTouch(touch, at: time)
        case .selectionLingerEnded:
            guard let until = selectionUntil, time >= until else { return Response() }
            selectionUntil = nil
            let next = feed?.reevaluate(now: time, log: { _ in }) ?? .standby
            apply(next.mode == .overflight ? next : KioskState(note: state.note), at: time)
            return Response(log: ["radar-kiosk: state \(statusLine) (the chosen aircraft's \(Int(touchLingerSeconds)) s are up)"])
        case let .gpio(active, line, initial):
            if gpioAction == .wake {
                // A button or a motion sensor: its active edge lights the screen for the linger.
                guard active && !initial else { return Response() }
                screen.wake(at: time)
                return Response(log: ["radar-kiosk: wake (GPIO \(line)): screen \(screenPower(at: time))"])
            }
            apply(active ? overflightWithKnownAircraft() : .standby, at: initial ? 0 : time, animated: !initial)
            return Response(log: ["radar-kiosk: state \(statusLine) (GPIO \(line) \(active ? "active" : "inactive"))"])
        case let .commandLine(line, _):
            return handleCommandLine(line, at: time)
        case let .scripted(command):
            return perform(command, at: time)
        case let .feed(events):
            var log: [String] = []
            let next = feed?.state(after: events, now: time, log: { log.append($0) })
            let before = state
            let rangeChanged = updateTraffic(showing: next ?? state, at: time)
            if let next { log += applyFromFeed(next, at: time) }
            if rangeChanged && state == before { relayoutForRange(at: time) }
            return Response(log: log)
        case let .night(night):
            screen.setNight(night)
            return Response(log: ["radar-kiosk: " + (night ? "night begins" : "night ends")])
        case let .standbyInfo(info):
            setStandbyInfo(info, at: time)
            return Response()
        case .feedDeadline:
            // A held roll's deadline, not the feed's: nothing else to work out.
            if rollIfDue(at: time), (feed?.deadline ?? .infinity) > time { return Response() }
            var log: [String] = []
            let next = feed?.reevaluate(now: time, log: { log.append($0) })
            let before = state
            let rangeChanged = updateTraffic(showing: next ?? state, at: time)
            if let next { log += applyFromFeed(next, at: time) }
            if rangeChanged && state == before { relayoutForRange(at: time) }
            return Response(log: log)
        case let .display(change):
            if change.needsRepaint { requestRepaint() }
            return Response()
        case .signal, .mqttConnected:
            return Response()
        case let .screenshotWritten(reply, _):
            return Response(reply: reply)
        }
    }

    private func handleKey(_ code: UInt16, from: String, at time: Double) -> Response {
        guard let action = keyMap[code] else { return Response() }
        let name = KeyNames.name(for: code) ?? String(code)
        if action == .quit {
            return keysMayQuit ? Response(log: ["radar-kiosk: quit (\(from) \(name))"], quit: true) : Response()
        }
        if action == .wake {
            screen.wake(at: time)
            return Response(log: ["radar-kiosk: wake (\(from) \(name)): screen \(screenPower(at: time))"])
        }
        guard time - lastKeyAction >= keyDebounce else { return Response() }
        lastKeyAction = time
        let next: KioskState
        switch action {
        case .toggle: next = state.mode == .overflight ? .standby : overflightWithKnownAircraft()
        case .overflight: next = overflightWithKnownAircraft()
        case .standby: next = .standby
        case .next:
            guard let following = nextAircraftState() else { return Response(log: ["radar-kiosk: no other aircraft known (\(from) \(name))"]) }
            next = following
        case .quit, .wake:
            return Response()
        }
        apply(next, at: time)
        return Response(log: ["radar-kiosk: state \(statusLine) (\(from) \(name))"])
    }

    /// The card of the next aircraft around after the one shown, nil when none is known.
    private func nextAircraftState() -> KioskState? {
        let around = feed?.aircraftInRange(KioskScene.dialRangeNM) ?? []
        guard !around.isEmpty else { return nil }
        let current = around.firstIndex { $0.callsign == state.aircraft?.callsign }
        return KioskState(mode: .overflight, aircraft: around[current.map { ($0 + 1) % around.count } ?? 0], selected: state.selected)
    }

    // MARK: touch

    /// When the chosen aircraft's card goes (the loop wakes for it).
    public var selectionDeadline: Double? { selectionUntil }

    private func handleTouch(_ touch: TouchEvent, at time: Double) -> Response {
        let point = touchMapping.point(x: touch.x, y: touch.y, width: layout.width, height: layout.height)
        // A dark screen is woken by the touch, which is not also a tap on what
        // appears: the gestures never see it come down, so its lift is nothing.
        if touch.phase == .began && screenPower(at: time) == .off {
            screen.wake(at: time)
            return Response(log: ["radar-kiosk: wake (touch): screen \(screenPower(at: time))"])
        }
        // Someone is at the screen: it stays lit as for a wake.
        if touch.phase == .began && screen.overheadOnly { screen.wake(at: time) }
        if gestures == nil { gestures = TouchGestures(width: layout.width, height: layout.height) }
        guard let gesture = gestures?.take(id: touch.id, phase: touch.phase, x: point.x, y: point.y, at: time) else { return Response() }
        return perform(gesture, at: time)
    }

    private func perform(_ gesture: TouchGesture, at time: Double) -> Response {
        switch gesture {
        case let .tap(x, y):
            switch view.hitTest(x: x, y: y) {
            case let .traffic(address):
                guard let aircraft = feed?.aircraft(address: address, within: traffic.maximumRangeNM) else { return Response() }
                selectionUntil = time + touchLingerSeconds
                apply(KioskState(mode: .overflight, aircraft: aircraft, note: state.note, selected: true), at: time)
                return Response(log: ["radar-kiosk: state \(statusLine) (touch: chosen on the dial)"])
            case .aircraft, .card:
                return showNext(at: time)
            case .dial:
                guard selectionUntil != nil else { return Response() }
                selectionUntil = nil
                apply(KioskState(note: state.note), at: time)
                return Response(log: ["radar-kiosk: state \(statusLine) (touch: the dial)"])
            case .nothing:
                return Response()
            }
        case .swipe:
            return state.mode == .overflight ? showNext(at: time) : Response()
        case let .longPress(x, y):
            guard showsTraffic, view.hitTest(x: x, y: y) == .dial || state.mode == .standby else { return Response() }
            // Auto, then each step, then auto again.
            let steps = traffic.rangeSteps
            let next: Double? = traffic.fixedRangeNM.flatMap { current in steps.first { $0 > current } } ?? (traffic.fixedRangeNM == nil ? steps[0] : nil)
            traffic.setFixedRange(next, at: time)
            relayoutForRange(at: time)
            return Response(log: ["radar-kiosk: dial range " + (next.map { units.distanceText($0).text } ?? "by the traffic") + " (touch: long press)"])
        }
    }

    /// The next aircraft, from a tap on the card or a swipe: with several
    /// overhead, the next one's turn (the cycle goes on from it); else the
    /// next aircraft around, chosen as a tap on its blip would choose it.
    private func showNext(at time: Double) -> Response {
        guard state.mode == .overflight else { return Response() }
        if !state.selected, let next = feed?.advanceOverhead(now: time) {
            apply(next, at: time)
            return Response(log: ["radar-kiosk: state \(statusLine) (touch: the next overhead)"])
        }
        guard let next = nextAircraftState(), next.aircraft?.callsign != state.aircraft?.callsign else { return Response() }
        selectionUntil = time + touchLingerSeconds
        apply(KioskState(mode: .overflight, aircraft: next.aircraft, note: state.note, selected: true), at: time)
        return Response(log: ["radar-kiosk: state \(statusLine) (touch: next)"])
    }

    /// "Something is overhead" from a key or a line: the feed's nearest aircraft
    /// if it knows one, the one already shown if the card is up, else a card
    /// with no aircraft. Never an invented one.
    private func overflightWithKnownAircraft() -> KioskState {
        let known = feed?.aircraftInRange(KioskScene.dialRangeNM).first ?? (state.mode == .overflight ? state.aircraft : nil)
        return KioskState(mode: .overflight, aircraft: known, note: state.note)
    }

    /// New positions for the blips after a snapshot (none while the
    /// receiver is unavailable), for the state about to be shown: with a
    /// card, the still face's range fits its aircraft. Returns whether the range changed.
    private func updateTraffic(showing target: KioskState, at time: Double) -> Bool {
        guard showsTraffic, let feed else { return false }
        let range = traffic.rangeNM
        let overflight = target.mode == .overflight
        traffic.focusDistanceNM = overflight ? target.aircraft?.distanceNM : nil
        traffic.highlightedName = overflight ? target.aircraft?.callsign : nil
        if feed.note != nil {
            traffic.update([], at: time)
        } else if feed.snapshotCount != trafficSnapshots {
            trafficSnapshots = feed.snapshotCount
            traffic.update(feed.around(traffic.maximumRangeNM), at: time)
        }
        return traffic.rangeNM != range
    }

    /// The marker of the aircraft shown stands on the rings: it moves with them.
    private func relayoutForRange(at time: Double) {
        guard state.mode == .overflight else { return }
        for view in views { view.showState(transaction: Transaction(animation: KioskScene.updateAnimation), at: time) }
    }

    private func applyFromFeed(_ next: KioskState, at time: Double) -> [String] {
        // A card chosen by touch stays its linger; something really overhead takes its place.
        if selectionUntil != nil {
            guard next.mode == .overflight else { return [] }
            selectionUntil = nil
        }
        guard next != state else {
            _ = rollIfDue(at: time)
            return []
        }
        let changed = next.mode != state.mode || next.aircraft?.callsign != state.aircraft?.callsign
        apply(next, at: time, coalescingRolls: true)
        return changed ? ["radar-kiosk: state \(statusLine) (feed \(feed?.sourceName ?? ""))"] : []
    }

    private func handleCommandLine(_ line: LineReader.Line, at time: Double) -> Response {
        switch line {
        case let .tooLong(n):
            return Response(reply: KioskCommand.errorReply("command line too long (\(n) bytes)"))
        case let .text(text):
            if text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return Response(reply: KioskCommand.errorReply("empty command line")) }
            do { return perform(try KioskCommand.parse(text), at: time) } catch {
                return Response(reply: KioskCommand.errorReply("\(error)"))
            }
        }
    }

    /// Carries out a command: the one place commands are handled, whether
    /// they come from stdin, the socket or a script.
    public func perform(_ command: KioskCommand, at time: Double) -> Response {
        switch command {
        case let .set(newState):
            apply(newState, at: time)
            return Response(reply: KioskCommand.okReply)
        case .get:
            let animating = isAnimating(at: time)
            var blips: [(address: String, x: Double, y: Double)] = []
            view.forEachMark { target, x, y in if case let .traffic(address) = target { blips.append((address, x, y)) } }
            return Response(reply: KioskCommand.stateReply(state, animating: animating, screen: screenPower(at: time),
                                                           feeds: feed?.sourceStatuses, blips: blips, standbyInfo: standbyInfo))
        case let .screenshot(path):
            return Response(screenshotPath: path)
        case let .screen(power, brightness):
            let before = (screen.override, screen.dayBrightness)
            if let power { screen.override = power }
            if let brightness { screen.dayBrightness = brightness }
            // Said when something changed: a home automation repeating ON (or a flood of it) is not news.
            guard before != (screen.override, screen.dayBrightness) else { return Response(reply: KioskCommand.okReply) }
            return Response(reply: KioskCommand.okReply, log: ["radar-kiosk: screen \(screen.override == .auto ? "by schedule" : "forced"): \(screenPower(at: time))"])
        case .wake:
            screen.wake(at: time)
            return Response(reply: KioskCommand.okReply)
        }
    }

    // MARK: state and scene

    /// Applies a new state at `time`. A change of mode glides on a spring; a
    /// change within a mode (numbers, another aircraft) eases.
    /// `coalescingRolls`: the card's numbers roll only if `rollInterval` has
    /// passed since they last did (the feed's updates); else they are held.
    public func apply(_ newState: KioskState, at time: Double, animated: Bool = true, coalescingRolls: Bool = false) {
        guard newState != state else { return }
        let modeChanged = newState.mode != state.mode
        if state.mode == .overflight && newState.mode != .overflight {
            screen.aircraftLeft(at: time)
            overflightEnded = time
        }
        if modeChanged && newState.mode == .overflight { overflightBegan = time }
        if let a = newState.aircraft { shownAircraft = a }
        state = newState
        updateCardNumbers(coalescing: coalescingRolls, at: time)
        let animation: Animation? = animated ? (modeChanged ? KioskScene.layoutAnimation : KioskScene.updateAnimation) : nil
        // Not animated means nothing animates, the card's and dial's own choreography included.
        var transaction = Transaction(animation: animation)
        transaction.disablesAnimations = !animated
        for view in views { view.showState(transaction: transaction, at: time) }
    }

    /// The rows' texts as the card shows them: what a roll changes.
    private func rollingTexts(_ a: Aircraft?) -> [String] {
        KioskScene.valueTexts(a, units: units).map(\.text)
            + [a.flatMap { WhereToLook($0, facing: facing, stationElevationFeet: stationElevationFeet)?.text } ?? ""]
    }

    /// Takes the shown aircraft's numbers for the card, or holds the last
    /// ones: held while they would roll within `rollInterval` of the last
    /// roll on the same aircraft, when `coalescing`.
    private func updateCardNumbers(coalescing: Bool, at time: Double) {
        let next = shownAircraft
        if coalescing, rollInterval > 0, state.mode == .overflight, let shown = cardNumbers, let a = next,
           shown.callsign == a.callsign, rollingTexts(a) != rollingTexts(shown) {
            if time - lastRoll < rollInterval {
                heldRollDue = lastRoll + rollInterval
                return
            }
            lastRoll = time
        }
        cardNumbers = next
        heldRollDue = nil
    }

    /// The held numbers' roll, when it is due: true when they rolled.
    private func rollIfDue(at time: Double) -> Bool {
        guard let due = heldRollDue, time >= due else { return false }
        cardNumbers = shownAircraft
        lastRoll = time
        heldRollDue = nil
        for view in views { view.showState(transaction: Transaction(animation: KioskScene.updateAnimation), at: time) }
        return true
    }

    // MARK: frames

    /// Whether any output must draw a frame at `time` (samples every view).
    public func frameNeeded(at time: Double) -> Bool {
        var needed = false
        for view in views where view.frameNeeded(at: time) { needed = true }
        return needed
    }

    /// Whether anything animates at `time` on any output (samples every view).
    public func isAnimating(at time: Double) -> Bool {
        var animating = false
        for view in views where view.isAnimating(at: time) { animating = true }
        return animating
    }

    /// The first output's sampled scene, in paint order (valid after `frameNeeded`).
    public var renderList: [RenderItem] { view.renderList }

    /// The first output's sweep bearing at its last sample.
    public var sweepBearing: Double { view.sweepBearing }

    /// Whether the first output's sweep runs.
    public var isSweeping: Bool { view.isSweeping }

    /// Asks every output for its whole picture again (its brightness changed, the screen was lost).
    public func requestRepaint() {
        for view in views { view.requestRepaint() }
    }

    /// The first output drew a frame: the repaint asked for is done.
    public func frameDrawn() { view.frameDrawn() }

    /// Whether the first output's render list is the one its last frame drew.
    public var renderListUnchanged: Bool { view.renderListUnchanged }

    /// When the controller must hear from the loop though nothing arrives (a feed hold running out).
    public var deadline: Double? {
        guard let roll = heldRollDue else { return feed?.deadline }
        return min(feed?.deadline ?? roll, roll)
    }

    /// The screen's power at `time`: on while an aircraft is shown, else as the policy says.
    public func screenPower(at time: Double) -> ScreenPower {
        screen.power(overhead: state.mode == .overflight, at: time)
    }

    /// "OVERFLIGHT BAW283", "STANDBY (Receiver unavailable — retrying)": for logs and systemctl status.
    public var statusLine: String {
        let what = state.mode == .overflight ? (state.selected ? "SELECTED" : "OVERFLIGHT") + (state.aircraft.map { " \($0.callsign)" } ?? "")
            + (state.place.map { " \($0.index)/\($0.count)" } ?? "") : "STANDBY"
        return what + (state.note.map { " (\($0))" } ?? "")
    }
}
