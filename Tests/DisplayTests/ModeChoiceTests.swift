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

    /// A 4K TV offers 3840x2160 at 30 Hz first (preferred, and on the
    /// console): with nothing asked for, the kiosk takes 1920x1080 at the
    /// highest refresh it has, and says why.
    @Test func aLargeSlowPreferredModeIsPassedOverForTenEightyAtSixty() {
        let tv = [Mode(width: 3840, height: 2160, refreshRate: 30), Mode(width: 3840, height: 2160, refreshRate: 24),
                  Mode(width: 2560, height: 1440, refreshRate: 30), Mode(width: 1920, height: 1080, refreshRate: 50),
                  Mode(width: 1920, height: 1080, refreshRate: 60), Mode(width: 1920, height: 1080, refreshRate: 30),
                  Mode(width: 1280, height: 720, refreshRate: 60)]
        for current in [tv[0], nil] {
            let choice = ModeChoice.choose(current: current, offered: tv, preferred: tv[0], size: nil, refresh: nil)
            #expect(choice?.mode == tv[4] && choice?.keepsCurrent == false)
            #expect(choice?.reason?.contains("3840x2160@30 passed over") == true, "\(choice?.reason ?? "no reason")")
        }
        // Asked for, it is taken.
        #expect(ModeChoice.choose(current: nil, offered: tv, preferred: tv[0], size: (3840, 2160), refresh: nil)?.mode == tv[0])
        // A portrait panel (Touch Display 2, 720x1280) is comfortable as it is.
        let portrait = [Mode(width: 720, height: 1280, refreshRate: 60)]
        let panel = ModeChoice.choose(current: portrait[0], offered: portrait, preferred: portrait[0], size: nil, refresh: nil)
        #expect(panel?.keepsCurrent == true && panel?.reason == nil)
        // A size offered only at 30 Hz (QEMU's bochs display offers 800x480 so) is kept as it is.
        let slow = [Mode(width: 800, height: 480, refreshRate: 30), Mode(width: 1920, height: 1080, refreshRate: 60)]
        let kept = ModeChoice.choose(current: slow[0], offered: slow, preferred: slow[0], size: nil, refresh: nil)
        #expect(kept?.mode == slow[0] && kept?.keepsCurrent == true)
        // 1080p at 30 Hz preferred, 60 Hz offered: 60.
        let thirty = [Mode(width: 1920, height: 1080, refreshRate: 30), Mode(width: 1920, height: 1080, refreshRate: 60)]
        #expect(ModeChoice.choose(current: nil, offered: thirty, preferred: thirty[0], size: nil, refresh: nil)?.mode == thirty[1])
    }
}
