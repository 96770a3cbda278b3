import Input
import KioskModel
import SystemIO

/// Key presses and touches from every evdev keyboard and touchscreen,
/// including ones plugged in later; and the end of a touch-chosen card's
/// linger, which the loop must wake for though no device speaks.
final class InputDeviceSource: EventSource {
    let devices: InputDevices
    unowned let controller: KioskController

    init(_ devices: InputDevices, controller: KioskController) {
        self.devices = devices
        self.controller = controller
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { devices.forEachDescriptor(body) }
    var nextWake: Double? { controller.selectionDeadline }

    func service(now: Double) -> [KioskEvent] {
        var events: [KioskEvent] = []
        for event in devices.service() {
            switch event {
            case let .key(key) where key.value == 1: events.append(.key(code: key.code, from: "key"))
            case .key: break
            case let .touch(touch): events.append(.touch(touch))
            }
        }
        if let deadline = controller.selectionDeadline, now >= deadline { events.append(.selectionLingerEnded) }
        return events
    }
}
