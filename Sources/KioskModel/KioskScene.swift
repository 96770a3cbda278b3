import AnimationCore
#if canImport(Glibc)
import Glibc
#endif

/// The scene as a pure function of the state: one persistent set of leaves for
/// every state (the seed's first lesson). What travels keeps one identity; the
/// card and its rows exist in every state and toggle opacity; numbers roll; the
/// callsign rides its frame; the status word swaps with an asymmetric fade.
public enum KioskScene {
    /// The status word: out over 0.2 s, in after 0.25 s, never both at once.
    public static let statusTransition = textSwap(inAfter: 0.25)

    /// Out over `cardFadeOut`, in over 0.2 s after `delay`: the old is gone before the new shows.
    static func textSwap(inAfter delay: Double) -> Transition {
        Transition.asymmetric(insertion: Transition.opacity.animation(.easeIn(duration: 0.2).delay(delay)),
                              removal: Transition.opacity.animation(.easeOut(duration: cardFadeOut)))
    }

    /// How long the card takes to fade out on the way back to standby; the dial
    /// waits that long before it glides back over the card's area.
    public static let cardFadeOut = 0.2

    /// What the card's leaves do when the mode changes: on the way to
    /// overflight they appear once the dial has cleared the card's area; on the
    /// way back they fade out before the dial returns.
    static func cardAnimation(_ overflight: Bool, layout: KioskLayout) -> (animation: Animation?, value: Int) {
        overflight ? (Animation.easeOut(duration: 0.25).delay(cardDelay(layout)), 1)
                   : (Animation.easeOut(duration: cardFadeOut), 0)
    }

    /// How long after the change to overflight the card begins to come in:
    /// once the dial has cleared its area, and never before the status word's 0.25 s.
    public static func cardDelay(_ layout: KioskLayout) -> Double { max(layout.cardRevealDelay, 0.25) }

    /// The dial's glide: at once to overflight, after the card has gone on the way back.
    static func dialAnimation(_ overflight: Bool) -> (animation: Animation?, value: Int) {
        overflight ? (layoutAnimation, 1) : (layoutAnimation.delay(cardFadeOut), 0)
    }

    /// The animation of a layout change: a spring, which retargets smoothly mid-glide.
    public static let layoutAnimation = Animation.spring(duration: 0.8, bounce: 0.12)
    /// Number and text updates within one layout.
    public static let updateAnimation = Animation.easeInOut(duration: 0.6)

    /// The dial's range in nautical miles (its rings are labelled 5, 10, 15).
    public static let dialRangeNM = 20.0

    /// The dial's identity.
    public static let dialID = NodeID("dial")

    /// What shows one aircraft (its marker, callsign, route and numbers) goes
    /// and comes with it: another aircraft's leaves are other leaves, so the
    /// old ones fade out where they are and the new ones fade in at theirs
    /// (the seed's fourth lesson: `.id` on the leaves that genuinely restart),
    /// never one blip flying across the scope or one number rolling into another's.
    static func aircraftTransition(_ layout: KioskLayout) -> Transition {
        textSwap(inAfter: cardDelay(layout))
    }

    /// Text sizes in px at scale 1, and baselines from the card's top.
    static let rows: [(label: String, baseline: Double)] = [("ALT", 300), ("GS", 360), ("DIST", 420), ("BRG", 480)]
    /// Where to look, a row below the numbers.
    static let lookRowBaseline = 540.0
    /// The journey's line, and the baseline of its distances, in the card's lowest band.
    static let journeyLineY = 580.0, journeyBaseline = 618.0
    /// The journey line's height at scale 1: its mark's diameter and a little room.
    public static let journeyLineHeight = 18.0

    /// The leaves for `state`. `shown` is the aircraft the card shows: in standby
    /// the last one stays on the card while it fades out. An overflight with
    /// no aircraft known (a GPIO line or a key said "overhead") shows the card
    /// with what is known: no callsign, no numbers, no marker.
    public static func leaves(for state: KioskState, shown: Aircraft?, layout: KioskLayout,
                              measure: TextMeasuring? = nil, units: DisplayUnits = DisplayUnits(),
                              rangeNM: Double = dialRangeNM, attribution: String? = nil, facing: Double? = nil,
                              stationElevationFeet: Double = 0, standbyInfo: StandbyInfo = .none, noData: Bool = false,
                              cardNumbers: Aircraft? = nil, cardNeverShown: Bool = false, interruptedWord: String? = nil,
                              cardUp: Bool = false) -> [LeafDescription] {
        let facingDegrees = facing ?? 0
        let overflight = state.mode == .overflight
        // A feed that is down is not an empty sky: the dial stops sweeping and standby's word says so.
        let noData = noData && !overflight
        let cardOpacity = overflight ? 1.0 : 0.0
        let card = layout.cardFrame
        let s = layout.cardScale
        let aircraft = overflight ? state.aircraft : state.aircraft ?? shown
        // The rows' numbers: the aircraft's as they last rolled (the controller holds them between rolls).
        let numbers = cardNumbers.flatMap { $0.callsign == aircraft?.callsign ? $0 : nil } ?? aircraft
        var leaves: [LeafDescription] = []
        leaves.reserveCapacity(20)
        let aircraftTransition = aircraftTransition(layout)
        let cardAnimation = cardAnimation(overflight, layout: layout)
        let dialAnimation = dialAnimation(overflight)

        // The dial: one leaf; its face blend animates with its frame as one vector.
        let dial = layout.dialFrame(state.mode)
        leaves.append(LeafDescription(id: dialID, frame: dial, content: .custom,
                                      style: KioskStyle.dial.leafStyle, custom: DialChannels(still: overflight || noData, facingDegrees: facingDegrees).animatable,
                                      animationOverride: dialAnimation))
        // Its aircraft marker: a leaf of that aircraft's, at its bearing and
        // distance, the bearing turned as the dial is (the top is the facing).
        let identity = aircraft?.callsign ?? "unknown"
        let alert = overflight ? aircraft?.alert : nil
        let alertLevel = alert.map(AlertLevel.init)
        if let aircraft, let bearing = aircraft.bearingDegrees, let distance = aircraft.distanceNM {
            // Beyond the dial's range the mark is an arrow at the rim (the renderer
            // draws it so); its place says how far out, within reason.
            let range = min(max(distance, 0) / rangeNM, 1.5) * dial.width / 2
            let angle = (bearing - facingDegrees) * .pi / 180
            leaves.append(LeafDescription(id: NodeID("dial/marker", id: identity),
                                          frame: AnimatableRect(x: dial.midX + sin(angle) * range, y: dial.midY - cos(angle) * range, width: 0, height: 0),
                                          opacity: overflight ? 1 : 0, content: .custom, style: (alertLevel?.markerStyle ?? .marker).leafStyle,
                                          custom: MarkerChannels(screenDegrees: aircraft.trackDegrees.map { $0 - facingDegrees }).animatable,
                                          transition: aircraftTransition, animationOverride: dialAnimation, isDecorative: true))
        }

        leaves.append(LeafDescription(id: NodeID("card/background"), frame: card, opacity: cardOpacity,
                                      style: (alertLevel?.cardStyle ?? .card).leafStyle, animationOverride: cardAnimation, isDecorative: !overflight))

        // Status word: its identity is the word, so a change removes one and inserts the other.
        // An aircraft on the ground (where overhead.include_ground lets one through) is not flying over.
        let word = overflight ? alert ?? (state.selected ? "SELECTED" : aircraft?.onGround == true ? "ON GROUND" : "OVERFLIGHT")
            : noData ? "NO DATA" : "STANDBY"
        let origin = layout.statusOrigin(state.mode)
        let statusSize = layout.textSize(28, scale: overflight ? s : layout.scale)
        leaves.append(LeafDescription(id: NodeID("status", id: word), frame: textFrame(x: origin.x, baseline: origin.baseline, size: statusSize),
                                      content: .text(word), style: (alertLevel?.statusStyle ?? (noData ? .noDataStatus : .status)).leafStyle,
                                      transition: overflight ? aircraftTransition : statusTransition))

        let x = card.x + 40 * s
        let right = card.maxX - 40 * s
        // Which of several overhead, level with the status word at the card's right: its number rolls on.
        let place = overflight && !state.selected ? state.place : nil
        leaves.append(LeafDescription(id: NodeID("card/place"), frame: textFrame(x: right, baseline: origin.baseline, size: statusSize),
                                      opacity: place == nil ? 0 : 1, content: .text(place.map { "\($0.index)/\($0.count)" } ?? ""),
                                      style: KioskStyle.place.leafStyle, contentTransition: .numericTextValue(Double(place?.index ?? 0)),
                                      animationOverride: cardAnimation, isDecorative: place == nil))
        leaves.append(LeafDescription(id: NodeID("card/callsign", id: identity), frame: textFrame(x: x, baseline: card.y + 150 * s, size: layout.textSize(72, scale: s)),
                                      opacity: cardOpacity, content: .text(aircraft.map { Aircraft.shownCallsign($0.callsign) } ?? "—"),
                                      style: KioskStyle.callsign.leafStyle, transition: aircraftTransition, contentTransition: .identity,
                                      animationOverride: cardAnimation, isDecorative: !overflight))
        let lineWidth = card.width - 80 * s
        registration(aircraft, overflight: overflight, identity: identity, layout: layout, measure: measure, into: &leaves)
        let lines = identityLines(aircraft)
        let routeSize = layout.textSize(32, scale: s), detailsSize = layout.textSize(24, scale: s)
        leaves.append(LeafDescription(id: NodeID("card/route", id: identity), frame: textFrame(x: x, baseline: card.y + 200 * s, size: routeSize),
                                      opacity: cardOpacity, content: .text(overflight && aircraft == nil ? unknownAircraftLine
                                                     : fitted(lines.first, size: routeSize, width: lineWidth, measure: measure)),
                                      style: KioskStyle.route.leafStyle, transition: aircraftTransition, animationOverride: cardAnimation,
                                      isDecorative: !overflight))
        leaves.append(LeafDescription(id: NodeID("card/details", id: identity),
                                      frame: textFrame(x: x, baseline: card.y + 240 * s, size: detailsSize), opacity: cardOpacity,
                                      content: .text(fitted(lines.second, size: detailsSize, width: lineWidth, measure: measure)),
                                      style: KioskStyle.route.leafStyle,
                                      transition: aircraftTransition, animationOverride: cardAnimation, isDecorative: !overflight))
        // The details' second line: the distant card's, where they wrap.
        leaves.append(LeafDescription(id: NodeID("card/details2", id: identity), frame: textFrame(x: x, baseline: card.y + 240 * s, size: detailsSize),
                                      opacity: 0, content: .text(""), style: KioskStyle.route.leafStyle,
                                      transition: aircraftTransition, animationOverride: cardAnimation, isDecorative: true))
        let values = valueTexts(numbers, units: units)
        for (i, row) in rows.enumerated() {
            let baseline = card.y + row.baseline * s
            leaves.append(LeafDescription(id: NodeID("card/row\(i)/label"), frame: textFrame(x: x, baseline: baseline, size: layout.textSize(28, scale: s)),
                                          opacity: cardOpacity, content: .text(row.label),
                                          style: KioskStyle.rowLabel.leafStyle, animationOverride: cardAnimation, isDecorative: !overflight))
            // Values are right-aligned, so the frame's right edge is the anchor.
            leaves.append(LeafDescription(id: NodeID("card/row\(i)/value", id: identity),
                                          frame: textFrame(x: right, baseline: baseline, size: layout.textSize(40, scale: s), width: 0),
                                          opacity: cardOpacity, content: .text(values[i].text),
                                          style: KioskStyle.rowValue.leafStyle, transition: aircraftTransition,
                                          contentTransition: .numericTextValue(values[i].number), animationOverride: cardAnimation,
                                          isDecorative: !overflight))
        }
        verticalRate(numbers, overflight: overflight, identity: identity, layout: layout, units: units, measure: measure, into: &leaves)

        lookOrPassage(aircraft, numbers: numbers, overflight: overflight, identity: identity, layout: layout, units: units, facing: facing,
                      stationElevationFeet: stationElevationFeet, measure: measure, into: &leaves)

        journey(aircraft?.journey, overflight: overflight, identity: identity, layout: layout, units: units, measure: measure, into: &leaves)
        standbyCorner(standbyInfo, overflight: overflight, layout: layout, measure: measure, into: &leaves)

        let note = state.note ?? ""
        leaves.append(LeafDescription(id: NodeID("note"), frame: textFrame(x: 40 * layout.scale, baseline: layout.height - 30 * layout.scale,
                                                                          size: layout.textSize(24, scale: layout.scale)),
                                      opacity: note.isEmpty ? 0 : 1, content: .text(note), style: KioskStyle.note.leafStyle,
                                      isDecorative: note.isEmpty))
        // Right-aligned in the corner the note leaves free; in standby only,
        // where the card's numbers are not.
        if let attribution {
            leaves.append(LeafDescription(id: NodeID("credit"), frame: textFrame(x: layout.width - 24 * layout.scale, baseline: layout.height - 24 * layout.scale,
                                                                                size: layout.textSize(20, scale: layout.scale)),
                                          opacity: overflight ? 0 : 1, content: .text(attribution), style: KioskStyle.credit.leafStyle,
                                          isDecorative: overflight))
        }
        if let distant = layout.distantCard {
            distant.lay(&leaves, lines: identityLines(aircraft), overflight: overflight, unknownAircraft: overflight && aircraft == nil, measure: measure)
        }
        // Back to standby before the card came in (a change of mind): its
        // fade-in, still waiting on its delay, would start under the fade-out
        // and show a ghost of it. It never showed, so it goes at once.
        if cardNeverShown && !overflight {
            for i in leaves.indices where leaves[i].id.path.hasPrefix("card/") {
                leaves[i].animationOverride = (nil, leaves[i].animationOverride?.value ?? 0)
            }
        }
        // The same change of mind, as it happens (`interruptedWord` the word
        // that was to come in): it never showed, so nothing is waited for; the
        // word it interrupted comes straight back from wherever its fade-out
        // had got to. The other stays a moment, unseen, and goes at once:
        // removed, its fade-in, still waiting on its delay, would run under
        // its fade-out and show a ghost of it.
        if let interruptedWord, !overflight, let i = leaves.firstIndex(where: { $0.id.path == "status" }) {
            leaves[i].transition = returningStatus
            if leaves[i].id.explicit != interruptedWord {
                var gone = leaves[i]
                gone.id = NodeID("status", id: interruptedWord)
                gone.content = .text(interruptedWord)
                gone.opacity = 0
                gone.transition = .identity
                gone.animationOverride = (nil, -1)
                gone.isDecorative = true
                leaves.append(gone)
            }
        }
        // Another aircraft on a card that is up (A → B): nothing waits for the
        // dial, so each of B's fields comes in as A's goes, not after the
        // reveal delay (which left the card's labels without values for 0.2 s).
        if cardUp && overflight {
            for i in leaves.indices where leaves[i].id.explicit != nil && (leaves[i].id.path.hasPrefix("card/") || leaves[i].id.path == "dial/marker") {
                leaves[i].transition = fieldSwap
            }
        }
        return leaves
    }

    /// The status word back after a change of mind: in over 0.2 s at once.
    static let returningStatus = textSwap(inAfter: 0)

    /// One aircraft's field giving way to another's on a card that is up: the
    /// old out over 0.2 s, the new in from 0.12 s, so that some value always
    /// shows and the two are never both more than faint.
    static let fieldSwap = textSwap(inAfter: 0.12)

    /// The journey, in the card's lowest band, for a route from the standing
    /// data that fits: a line from origin to destination with the aircraft's
    /// place on it (it glides as the aircraft flies), the distance flown under
    /// its left end and the distance to the destination's city under its right.
    /// The distances change without rolling: they tick every few seconds
    /// all flight long, and a card that rolled them would never be still.
    static func journey(_ journey: Journey?, overflight: Bool, identity: String, layout: KioskLayout, units: DisplayUnits,
                        measure: TextMeasuring?, into leaves: inout [LeafDescription]) {
        let card = layout.cardFrame, s = layout.cardScale
        let x = card.x + 40 * s, width = card.width - 80 * s
        let shown = overflight && journey != nil
        let opacity = shown ? 1.0 : 0.0
        let aircraftTransition = aircraftTransition(layout)
        let cardAnimation = cardAnimation(overflight, layout: layout)
        let height = journeyLineHeight * s
        leaves.append(LeafDescription(id: NodeID("card/journey", id: identity),
                                      frame: AnimatableRect(x: x, y: card.y + journeyLineY * s - height / 2, width: width, height: height),
                                      opacity: opacity, content: .custom, style: KioskStyle.journey.leafStyle,
                                      custom: AnimatableRect(x: journey?.fraction ?? 0, y: 0, width: 0, height: 0),
                                      transition: aircraftTransition, animationOverride: cardAnimation, isDecorative: !shown))
        let texts = journey?.texts(units) ?? (flown: "", toGo: "")
        let size = layout.textSize(24, scale: s), baseline = card.y + journeyBaseline * s
        let flownWidth = advance(texts.flown, .route, size: size, measure)
        let toGo = fitted(texts.toGo, size: size, width: width - flownWidth - 20 * s, measure: measure)
        leaves.append(LeafDescription(id: NodeID("card/journey/flown", id: identity), frame: textFrame(x: x, baseline: baseline, size: size),
                                      opacity: opacity, content: .text(texts.flown), style: KioskStyle.route.leafStyle,
                                      transition: aircraftTransition, contentTransition: .identity, animationOverride: cardAnimation,
                                      isDecorative: !shown))
        leaves.append(LeafDescription(id: NodeID("card/journey/to", id: identity), frame: textFrame(x: x + width, baseline: baseline, size: size),
                                      opacity: opacity, content: .text(toGo), style: KioskStyle.journeyDestination.leafStyle,
                                      transition: aircraftTransition, contentTransition: .identity, animationOverride: cardAnimation,
                                      isDecorative: !shown))
    }

    /// The row under the numbers: where to look, for an aircraft above the
    /// horizon; once it has left the overhead zone (its card held), how long
    /// it was overhead, with how close it came beside the label where that
    /// fits. The one fades out before the other fades in: never both legible.
    static func lookOrPassage(_ aircraft: Aircraft?, numbers: Aircraft?, overflight: Bool, identity: String, layout: KioskLayout, units: DisplayUnits,
                              facing: Double?, stationElevationFeet: Double, measure: TextMeasuring?, into leaves: inout [LeafDescription]) {
        let card = layout.cardFrame, s = layout.cardScale
        let x = card.x + 40 * s, right = card.maxX - 40 * s
        let baseline = card.y + lookRowBaseline * s
        let labelSize = layout.textSize(28, scale: s), valueSize = layout.textSize(32, scale: s), noteSize = layout.textSize(24, scale: s)
        let passage = overflight ? aircraft?.passage : nil
        let look = numbers.flatMap { WhereToLook($0, facing: facing, stationElevationFeet: stationElevationFeet) }
        let lookShown = overflight && look != nil && passage == nil
        let cardAnimation = cardAnimation(overflight, layout: layout)
        let aircraftTransition = aircraftTransition(layout)
        // Within an overflight the swap between the two is its own: out over 0.2 s, in after it.
        let lookAnimation = overflight && passage != nil ? (Animation.easeOut(duration: 0.2), 3) : cardAnimation
        let passageAnimation = passage != nil ? (Animation.easeIn(duration: 0.2).delay(0.2), 3) : cardAnimation
        leaves.append(LeafDescription(id: NodeID("card/look/label"), frame: textFrame(x: x, baseline: baseline, size: labelSize),
                                      opacity: lookShown ? 1 : 0, content: .text("LOOK"), style: KioskStyle.rowLabel.leafStyle,
                                      animationOverride: lookAnimation, isDecorative: !lookShown))
        leaves.append(LeafDescription(id: NodeID("card/look/value", id: identity),
                                      frame: textFrame(x: right, baseline: baseline, size: valueSize, width: 0),
                                      opacity: lookShown ? 1 : 0, content: .text(look?.text ?? ""), style: KioskStyle.rowValue.leafStyle,
                                      transition: aircraftTransition, contentTransition: .numericTextValue(look?.elevationDegrees.rounded() ?? 0),
                                      animationOverride: lookAnimation, isDecorative: !lookShown))
        let label = "OVERHEAD", duration = passage?.durationText ?? ""
        let closest = passage.map { "closest " + units.distanceText($0.closestNM).text } ?? ""
        let labelWidth = advance(label, .rowLabel, size: labelSize, measure)
        let valueWidth = advance(duration, .rowValue, size: valueSize, measure)
        let noteX = x + labelWidth + 16 * s
        let noteWidth = advance(closest, .route, size: noteSize, measure)
        let note = noteX + noteWidth <= right - valueWidth - 16 * s ? closest : ""
        for (name, text, frame, style) in [("label", label, textFrame(x: x, baseline: baseline, size: labelSize), KioskStyle.rowLabel),
                                           ("value", duration, textFrame(x: right, baseline: baseline, size: valueSize, width: 0), .rowValue),
                                           ("closest", note, textFrame(x: noteX, baseline: baseline, size: noteSize), .route)] {
            let shown = passage != nil && !text.isEmpty
            leaves.append(LeafDescription(id: NodeID("card/passage/\(name)", id: identity), frame: frame, opacity: shown ? 1 : 0,
                                          content: .text(text), style: style.leafStyle, transition: aircraftTransition,
                                          contentTransition: .identity, animationOverride: passageAnimation, isDecorative: !shown))
        }
    }

    /// The baselines of the registration's two lines beside the callsign: level
    /// with the top of its capitals, and with its baseline.
    static let registrationBaselines = (first: 120.0, second: 150.0)

    /// The registration and the squawk, and under them the country that
    /// assigned the address, right-aligned in the room the callsign leaves on
    /// its line: each line the longest of its choices that fits (the
    /// country's name, else its ISO code); nothing rather than a line that
    /// runs into the callsign.
    static func registration(_ aircraft: Aircraft?, overflight: Bool, identity: String, layout: KioskLayout, measure: TextMeasuring?,
                             into leaves: inout [LeafDescription]) {
        let card = layout.cardFrame, s = layout.cardScale
        let x = card.x + 40 * s, right = card.maxX - 40 * s
        let size = layout.textSize(24, scale: s)
        let callsign = aircraft.map { Aircraft.shownCallsign($0.callsign) } ?? "—"
        let callsignSize = layout.textSize(72, scale: s)
        let callsignWidth = advance(callsign, .callsign, size: callsignSize, measure)
        let room = right - x - callsignWidth - 24 * s
        let lines = registrationLines(aircraft)
        let first = lines.first.first { advance($0, .registration, size: size, measure) <= room } ?? ""
        let second = lines.second.first { advance($0, .registration, size: size, measure) <= room } ?? ""
        for (i, (text, baseline)) in [(first, registrationBaselines.first), (second, registrationBaselines.second)].enumerated() {
            let shown = overflight && !text.isEmpty
            leaves.append(LeafDescription(id: NodeID("card/registration\(i)", id: identity),
                                          frame: textFrame(x: right, baseline: card.y + baseline * s, size: size),
                                          opacity: shown ? 1 : 0, content: .text(text), style: KioskStyle.registration.leafStyle,
                                          transition: aircraftTransition(layout), contentTransition: .identity,
                                          animationOverride: cardAnimation(overflight, layout: layout), isDecorative: !shown))
        }
    }

    /// The lines' choices, longest first: "G-ZBKA · Squawk 7421", "G-ZBKA";
    /// and "United Kingdom", "GB".
    static func registrationLines(_ a: Aircraft?) -> (first: [String], second: [String]) {
        guard let a else { return ([], []) }
        let squawk = a.squawk.map { "Squawk \($0)" }
        var first: [String] = []
        if let registration = a.registration {
            if let squawk { first.append("\(registration) · \(squawk)") }
            first.append(registration)
        } else if let squawk {
            first.append(squawk)
        }
        return (first, [a.country, a.countryCode].compactMap { $0 })
    }

    /// The climb or descent beside the altitude's label: the rate where it
    /// fits between the label and the value, else the arrow alone. It
    /// changes without rolling, as the journey's distances do.
    static func verticalRate(_ aircraft: Aircraft?, overflight: Bool, identity: String, layout: KioskLayout, units: DisplayUnits,
                             measure: TextMeasuring?, into leaves: inout [LeafDescription]) {
        let card = layout.cardFrame, s = layout.cardScale
        let x = card.x + 40 * s, right = card.maxX - 40 * s
        let labelSize = layout.textSize(28, scale: s), valueSize = layout.textSize(40, scale: s), size = layout.textSize(24, scale: s)
        let label = rows[0].label, value = units.altitudeText(aircraft).text
        let labelWidth = advance(label, .rowLabel, size: labelSize, measure)
        let valueWidth = advance(value, .rowValue, size: valueSize, measure)
        let start = x + labelWidth + 16 * s
        let room = right - valueWidth - 16 * s - start
        let rate = units.verticalRateText(aircraft)
        let text = [rate.text, rate.arrow].first { ($0.isEmpty ? 0 : advance($0, .route, size: size, measure)) <= room } ?? ""
        let shown = overflight && !text.isEmpty
        leaves.append(LeafDescription(id: NodeID("card/row0/rate", id: identity), frame: textFrame(x: start, baseline: card.y + rows[0].baseline * s, size: size),
                                      opacity: shown ? 1 : 0, content: .text(text), style: KioskStyle.route.leafStyle,
                                      transition: aircraftTransition(layout), contentTransition: .identity,
                                      animationOverride: cardAnimation(overflight, layout: layout), isDecorative: !shown))
    }

    /// Standby's quiet corner, right-aligned at the top right where the dial
    /// leaves room: the local time, and today's figures under it. It fades out
    /// as the dial glides to the card and back in once the dial has returned.
    /// Its text changes at the minute without a transition: a clock that
    /// cross-faded or rolled each minute would be the busiest thing in the room.
    static func standbyCorner(_ info: StandbyInfo, overflight: Bool, layout: KioskLayout, measure: TextMeasuring?,
                              into leaves: inout [LeafDescription]) {
        let animation: (animation: Animation?, value: Int) = overflight ? (Animation.easeOut(duration: cardFadeOut), 1)
            : (Animation.easeIn(duration: 0.3).delay(cardFadeOut + 0.5), 0)
        let right = layout.width - 40 * layout.scale
        let dial = layout.dialFrame(.standby)
        // Beside the dial in landscape; above it, on the status word's right half, in portrait.
        let left = layout.isPortrait ? layout.width / 2 : dial.maxX + 16 * layout.scale
        let width = max(right - left, 0)
        let clockSize = layout.textSize(36, scale: layout.scale), lineSize = layout.textSize(22, scale: layout.scale)
        var baseline = layout.statusOrigin(.standby).baseline
        let clock = info.clock ?? ""
        leaves.append(LeafDescription(id: NodeID("standby/clock"), frame: textFrame(x: right, baseline: baseline, size: clockSize),
                                      opacity: overflight || clock.isEmpty ? 0 : 1, content: .text(clock), style: KioskStyle.clock.leafStyle,
                                      contentTransition: .identity, animationOverride: animation, isDecorative: overflight || clock.isEmpty))
        if !clock.isEmpty { baseline += lineSize * 1.6 }
        for i in 0..<StandbyInfo.maximumLines {
            let line = i < info.lines.count ? fitted(info.lines[i], size: lineSize, width: width, measure: measure) : ""
            baseline += lineSize * 1.35
            leaves.append(LeafDescription(id: NodeID("standby/today\(i)"), frame: textFrame(x: right, baseline: baseline, size: lineSize),
                                          opacity: overflight || line.isEmpty ? 0 : 1, content: .text(line), style: KioskStyle.today.leafStyle,
                                          contentTransition: .identity, animationOverride: animation, isDecorative: overflight || line.isEmpty))
        }
    }

    /// The advance of `text` in `style` at `size`: measured, or without a way
    /// to measure, 0.62 of the size a character (the face's capitals and digits).
    static func advance(_ text: String, _ style: KioskStyle, size: Double, _ measure: TextMeasuring?) -> Double {
        measure?.width(of: text, style: style, size: size) ?? Double(text.count) * 0.62 * size
    }

    /// A text leaf's frame: x at its anchor, top at baseline − size, height = the em size in px.
    static func textFrame(x: Double, baseline: Double, size: Double, width: Double = 0) -> AnimatableRect {
        AnimatableRect(x: x, y: baseline - size, width: width, height: size)
    }

    /// The route line of a card with no aircraft known.
    public static let unknownAircraftLine = "Aircraft overhead"

    /// The card's two lines under the callsign: the route (when known), and
    /// who flies it and what it is ("British Airways · Boeing 787-9
    /// Dreamliner", the type designator when the model is unknown). Without a
    /// route the second line moves up.
    static func identityLines(_ a: Aircraft?) -> (first: String, second: String) {
        guard let a else { return ("", "") }
        let details = [a.airline, a.model ?? a.type].compactMap { $0 }.joined(separator: " · ")
        if let route = a.route { return (route, details) }
        return (details, "")
    }

    /// `line` as it fits `width` at `size` in the card's route style: whole,
    /// or cut with an ellipsis. Without a way to measure, a character budget
    /// for the widest letters stands in.
    static func fitted(_ line: String, size: Double, width: Double, measure: TextMeasuring?) -> String {
        guard let measure else {
            let budget = max(Int(width / (0.8 * size)), 4)
            return line.count <= budget ? line : String(line.prefix(budget - 1)).trimmed() + "…"
        }
        if measure.width(of: line, style: .route, size: size) <= width { return line }
        let characters = Array(line)
        var low = 0, high = characters.count
        while low < high {
            let mid = (low + high + 1) / 2
            let candidate = String(characters[0..<mid]).trimmed() + "…"
            if measure.width(of: candidate, style: .route, size: size) <= width { low = mid } else { high = mid - 1 }
        }
        return String(characters[0..<low]).trimmed() + "…"
    }

    /// `line` on at most two lines of `width` at `size`: whole on the first
    /// where it fits, else broken after the last " · " (else space) that
    /// leaves a first line that fits, the rest fitted to the second.
    static func wrapped(_ line: String, size: Double, width: Double, measure: TextMeasuring?) -> (first: String, second: String) {
        let whole = fitted(line, size: size, width: width, measure: measure)
        if whole == line { return (line, "") }
        for separator in [" · ", " "] {
            var breaks = line.ranges(of: separator)
            while let last = breaks.popLast() {
                let first = String(line[..<last.lowerBound])
                guard fitted(first, size: size, width: width, measure: measure) == first else { continue }
                return (first, fitted(String(line[last.upperBound...]), size: size, width: width, measure: measure))
            }
        }
        return (whole, "")
    }

    /// The four values with the number each rolls by.
    static func valueTexts(_ a: Aircraft?, units: DisplayUnits = DisplayUnits()) -> [(text: String, number: Double)] {
        // North is 360°, as a compass card and a controller say it: 359.6° is not "0°".
        let bearing = a?.bearingDegrees.map { ("\(Int($0.rounded()) % 360 == 0 ? 360 : Int($0.rounded()))°", $0) } ?? ("—", 0)
        return [units.altitudeText(a), units.speedText(a?.groundSpeedKnots), units.distanceText(a?.distanceNM), bearing]
    }
}
