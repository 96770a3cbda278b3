import Input
import KioskModel
import SystemIO

/// Key presses from every evdev keyboard, including ones plugged in later.
final class KeyboardSource: EventSource {
    let keyboards: KeyboardSet

    init(_ keyboards: KeyboardSet) { self.keyboards = keyboards }

    func forEachDescriptor(_ body: (Int32) -> Void) { keyboards.forEachDescriptor(body) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] {
        keyboards.service().filter { $0.value == 1 }.map { .key(code: $0.code, from: "key") }
    }
}
