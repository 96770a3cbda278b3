import Testing
@testable import Display

/// The mode the kiosk takes on a connector.
@Suite struct ModeChoiceTests {
    struct Mode: DisplayModeShape, Equatable {
        let width: Int, height: Int, refreshRate: Double
    }

    let offered = [Mode(width: 1920, height: 1080, refreshRate: 60), Mode(width: 1280, height: 720, refreshRate: 60),
                   Mode(width: 1280, height: 720, refreshRate: 50), Mode(width: 800, height: 480, refreshRate: 59.94)]

    func choose(current: Mode?, size: (Int, Int)? = nil, refresh: Double? = nil) -> ModeChoice<Mode>? {
        ModeChoice.choose(current: current, offered: offered, preferred: offered[0],
                          size: size.map { (width: $0.0, height: $0.1) }, refresh: refresh)
    }

    @Test func theCurrentModeIsKeptWhenItFits() {
        // Nothing asked for: whatever is on the screen stays, even if not the preferred mode.
        let now = offered[2]
        #expect(choose(current: now)?.mode == now && choose(current: now)?.keepsCurrent == true)
        // A size the current mode has (any refresh): kept.
        #expect(choose(current: now, size: (1280, 720))?.keepsCurrent == true)
        #expect(choose(current: offered[3], refresh: 60)?.keepsCurrent == true, "59.94 is within half a hertz of 60")
    }

    @Test func anotherModeIsSetWhenTheCurrentOneDoesNotFit() {
        let now = offered[2]
        let bigger = choose(current: now, size: (1920, 1080))
        #expect(bigger?.mode == offered[0] && bigger?.keepsCurrent == false)
        let faster = choose(current: now, size: (1280, 720), refresh: 60)
        #expect(faster?.mode == offered[1] && faster?.keepsCurrent == false)
        #expect(choose(current: now, size: (1024, 768)) == nil, "nothing offered matches")
        // Nothing on the screen yet: the preferred mode, unless a size is asked for.
        #expect(choose(current: nil)?.mode == offered[0] && choose(current: nil)?.keepsCurrent == false)
        #expect(choose(current: nil, size: (800, 480))?.mode == offered[3])
    }
}
