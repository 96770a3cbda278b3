#if canImport(Glibc)
import Glibc
#endif
import XCTest
import Display

/// The output's flips as the kernel answers them, with a kernel that says
/// EBUSY when a flip it has pending is in the way (one asked for before a VT
/// switch, which the switch made the kiosk forget).
final class ScanoutStateTests: XCTestCase {
    /// Answers the flips asked for: EBUSY for the first `busy`, then 0.
    final class Kernel {
        var busy: Int
        var asked: [Int] = []
        init(busy: Int) { self.busy = busy }
        func flip(_ buffer: Int) -> Int32 {
            asked.append(buffer)
            if busy > 0 {
                busy -= 1
                return EBUSY
            }
            return 0
        }
    }

    func testAFlipRefusedAsBusyIsAskedAgainOnTheNextEvent() {
        let kernel = Kernel(busy: 1)
        var state = ScanoutState()
        state.modeSet(showing: 0)
        XCTAssertEqual(state.backBuffer, 1)
        XCTAssertNil(state.flip(to: 1, request: kernel.flip), "EBUSY is no failure of the display")
        XCTAssertEqual(state.phase, .flipRefused(buffer: 1))
        XCTAssertFalse(state.acceptsPresent, "no present on top of a refused flip")
        XCTAssertTrue(state.awaitsEvent, "the loop polls the card for the event in the way")
        // The flip that was in the way completes: its event is not ours, and ours is asked again.
        XCTAssertNil(state.eventRead(completed: false, request: kernel.flip))
        XCTAssertEqual(kernel.asked, [1, 1])
        XCTAssertEqual(state.phase, .flipPending)
        XCTAssertEqual(state.flipsRetried, 1)
        XCTAssertNil(state.eventRead(completed: true, request: kernel.flip))
        XCTAssertEqual(state.phase, .showing)
        XCTAssertEqual(state.front, 1)
        XCTAssertEqual(state.backBuffer, 0, "the next frame goes to the other buffer")
    }

    func testStillBusyStaysRefusedAndAnyOtherRefusalIsAFailure() {
        let kernel = Kernel(busy: 2)
        var state = ScanoutState()
        state.modeSet(showing: 0)
        XCTAssertNil(state.flip(to: 1, request: kernel.flip))
        XCTAssertNil(state.eventRead(completed: false, request: kernel.flip))
        XCTAssertEqual(state.phase, .flipRefused(buffer: 1))
        var gone = ScanoutState()
        gone.modeSet(showing: 0)
        XCTAssertEqual(gone.flip(to: 1) { _ in ENODEV }, ENODEV, "a device that went away is reported")
    }

    func testAnEventThatIsNotOursLeavesAPendingFlipPending() {
        let kernel = Kernel(busy: 0)
        var state = ScanoutState()
        state.modeSet(showing: 0)
        XCTAssertNil(state.flip(to: 1, request: kernel.flip))
        // The card's other output completed a flip: read on the same descriptor.
        XCTAssertNil(state.eventRead(completed: false, request: kernel.flip))
        XCTAssertEqual(state.phase, .flipPending)
        XCTAssertEqual(kernel.asked, [1])
    }

    func testBlankedByDPMSWakesOnTheBufferItKept() {
        var state = ScanoutState()
        state.modeSet(showing: 1)
        state.blankedKeepingMode()
        XCTAssertEqual(state.phase, .waking)
        XCTAssertEqual(state.backBuffer, 1, "the CRTC still holds buffer 1: that one is brought up to date")
        state.woke()
        XCTAssertEqual(state.phase, .showing)
        state.modeLost()
        XCTAssertEqual(state.phase, .needsModeset)
    }
}
