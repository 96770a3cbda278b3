import Testing
@testable import Input

/// Touch records as the kernel sends them: an FT5406 (the Pi's 7" panel,
/// multitouch protocol B, 800x480), a single-touch panel, QEMU's tablet.
@Suite struct TouchDecoderTests {
    static let syn = EvdevRecord(type: 0, code: 0, value: 0)
    static func abs(_ code: UInt16, _ value: Int32) -> EvdevRecord { EvdevRecord(type: 3, code: code, value: value) }
    static func key(_ code: UInt16, _ value: Int32) -> EvdevRecord { EvdevRecord(type: 1, code: code, value: value) }
    static let ft5406 = TouchDecoder(x: .init(minimum: 0, maximum: 799), y: .init(minimum: 0, maximum: 479), multitouch: true)

    @Test func protocolBGivesDownMoveUpPerSlot() {
        var decoder = Self.ft5406
        let down = decoder.feed([Self.abs(0x2f, 0), Self.abs(0x39, 17), Self.abs(0x35, 400), Self.abs(0x36, 240), Self.key(0x14a, 1), Self.syn])
        #expect(down == [TouchEvent(id: 0, phase: .began, x: 400.0 / 799, y: 240.0 / 479)])
        // A second finger in slot 1, the first moving.
        let both = decoder.feed([Self.abs(0x35, 410), Self.abs(0x2f, 1), Self.abs(0x39, 18), Self.abs(0x35, 100), Self.abs(0x36, 50), Self.syn])
        #expect(both == [TouchEvent(id: 0, phase: .moved, x: 410.0 / 799, y: 240.0 / 479), TouchEvent(id: 1, phase: .began, x: 100.0 / 799, y: 50.0 / 479)])
        let up = decoder.feed([Self.abs(0x2f, 0), Self.abs(0x39, -1), Self.abs(0x2f, 1), Self.abs(0x39, -1), Self.key(0x14a, 0), Self.syn])
        #expect(up.map(\.phase) == [.ended, .ended] && up.map(\.id) == [0, 1])
    }

    @Test func nothingIsReportedBeforeTheFrameEnds() {
        var decoder = Self.ft5406
        #expect(decoder.feed([Self.abs(0x2f, 0), Self.abs(0x39, 3), Self.abs(0x35, 1)]).isEmpty)
        #expect(decoder.feed([Self.syn]).count == 1)
    }

    @Test func aFingerDownBeforeTheKioskStartedIsNoTouch() {
        var decoder = Self.ft5406
        // Positions and a lift for slot 0, whose tracking id came before the device was opened.
        #expect(decoder.feed([Self.abs(0x35, 300), Self.syn, Self.abs(0x35, 310), Self.syn, Self.abs(0x39, -1), Self.syn]).isEmpty)
    }

    @Test func aDroppedSynchronisationLiftsEveryFinger() {
        var decoder = Self.ft5406
        _ = decoder.feed([Self.abs(0x39, 4), Self.abs(0x35, 10), Self.abs(0x36, 10), Self.syn])
        let lost = decoder.feed([EvdevRecord(type: 0, code: 3, value: 0), Self.abs(0x35, 700), Self.syn])
        #expect(lost.map(\.phase) == [.ended])
        #expect(decoder.feed([Self.abs(0x35, 20), Self.syn]).isEmpty, "after the drop, the finger is not known")
    }

    @Test func singleTouchAndAnAbsolutePointer() {
        var panel = TouchDecoder(x: .init(minimum: 0, maximum: 4095), y: .init(minimum: 0, maximum: 4095), multitouch: false)
        #expect(panel.feed([Self.abs(0, 2048), Self.abs(1, 1024), Self.key(0x14a, 1), Self.syn]).map(\.phase) == [.began])
        #expect(panel.feed([Self.key(0x14a, 0), Self.syn]).map(\.phase) == [.ended])
        // QEMU's usb-tablet: 0...32767, BTN_LEFT.
        var tablet = TouchDecoder(x: .init(minimum: 0, maximum: 32767), y: .init(minimum: 0, maximum: 32767), multitouch: false)
        let tap = tablet.feed([Self.abs(0, 32767), Self.abs(1, 0), Self.syn, Self.key(0x110, 1), Self.syn, Self.key(0x110, 0), Self.syn])
        #expect(tap == [TouchEvent(id: 0, phase: .began, x: 1, y: 0), TouchEvent(id: 0, phase: .ended, x: 1, y: 0)])
    }
}
