#if canImport(Glibc)
import Glibc
#endif
import Display
import Feed
import Input
import KioskModel
import SystemIO

// Each input of the kiosk as an event source: a small adapter from a kernel
// interface (wrapped in Input, Display, Feed or SystemIO) to `KioskEvent`s.
// None of them decides anything: the controller does.

/// SIGTERM, SIGINT, SIGHUP, SIGUSR1 and SIGUSR2 from a signalfd.
final class SignalSource: EventSource {
    private let descriptor: FileDescriptor

    init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(descriptor.rawValue) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] {
        var events: [KioskEvent] = []
        while let number = Signals.next(from: descriptor) {
            switch number {
            case SIGHUP: events.append(.signal(.reload))
            case SIGUSR1: events.append(.signal(.screenshot))
            case SIGUSR2: events.append(.signal(.switchTerminal))
            default: events.append(.signal(.terminate(number)))
            }
        }
        return events
    }
}

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

/// Keys typed on the controlling terminal, when the kiosk is run by hand.
final class TerminalSource: EventSource {
    let terminal: TerminalKeys

    init(_ terminal: TerminalKeys) { self.terminal = terminal }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(terminal.fd) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] {
        terminal.read().compactMap { KeyNames.code(for: $0).map { .key(code: $0, from: "key") } }
    }
}

/// A GPIO input line. After an edge the level is read once things settle
/// (the last one wins), so a bouncing contact makes one change.
final class GPIOSource: EventSource {
    let line: GPIOLine
    let settle: Double
    private var checkAt: Double?

    init(_ line: GPIOLine, settle: Double) {
        self.line = line
        self.settle = settle
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(line.fd) }
    var nextWake: Double? { checkAt }

    func service(now: Double) -> [KioskEvent] {
        if line.drainEvents() > 0 && checkAt == nil { checkAt = now + settle }
        guard let due = checkAt, now >= due else { return [] }
        checkAt = nil
        do {
            return [.gpio(active: try line.isActive(), line: line.name, initial: false)]
        } catch {
            Log.line("radar-kiosk: \(error)")
            return []
        }
    }
}

/// JSON command lines on standard input (a pipe or a file, not a terminal).
final class StandardInputSource: EventSource {
    private let input = FileDescriptor(borrowing: 0)
    private var reader = LineReader()
    private var open = true

    init() { input.setNonBlocking() }

    func forEachDescriptor(_ body: (Int32) -> Void) { if open { body(0) } }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] {
        guard open else { return [] }
        let (lines, closed) = reader.read(from: input, budget: 64 << 10)
        if closed { open = false }
        return lines.map { .commandLine($0, client: .standardInput) }
    }
}

/// JSON command lines from the unix socket's clients.
final class SocketSource: EventSource {
    let socket: CommandSocket

    init(_ socket: CommandSocket) { self.socket = socket }

    func forEachDescriptor(_ body: (Int32) -> Void) { socket.forEachDescriptor(body) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] {
        socket.service()
        return socket.takeQueue().map { .commandLine($0.line, client: .socket($0.client.id)) }
    }
}

/// The live ADS-B feed, and the moment its hold runs out.
final class FeedInput: EventSource {
    let source: any FeedSource
    let interpreter: FeedInterpreter

    init(_ source: any FeedSource, interpreter: FeedInterpreter) {
        self.source = source
        self.interpreter = interpreter
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { source.forEachDescriptor(body) }

    var nextWake: Double? {
        switch (source.nextWake, interpreter.deadline.map { $0 + 0.01 }) {
        case let (a?, b?): return min(a, b)
        case let (a, b): return a ?? b
        }
    }

    func service(now: Double) -> [KioskEvent] {
        let events = source.service(now: now)
        if !events.isEmpty { return [.feed(events)] }
        if let deadline = interpreter.deadline, now >= deadline { return [.feedDeadline] }
        return []
    }
}

/// DRM hotplug uevents; what they mean for the display is the service's to decide.
final class HotplugSource: EventSource {
    let monitor: HotplugMonitor
    let onHotplug: () -> [KioskEvent]

    init(_ monitor: HotplugMonitor, onHotplug: @escaping () -> [KioskEvent]) {
        self.monitor = monitor
        self.onHotplug = onHotplug
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { body(monitor.fd) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] { monitor.drain() ? onHotplug() : [] }
}

/// The autoplay script's commands, each at its time.
final class ScriptSource: EventSource {
    let script: [TimedCommand]
    private var next = 0

    init(_ script: [TimedCommand]) { self.script = script }

    func forEachDescriptor(_ body: (Int32) -> Void) {}
    var nextWake: Double? { next < script.count ? script[next].at : nil }

    func service(now: Double) -> [KioskEvent] {
        var events: [KioskEvent] = []
        while next < script.count && script[next].at <= now {
            events.append(.scripted(script[next].command))
            next += 1
        }
        return events
    }
}

/// systemd's watchdog: a keep-alive from the loop itself, so a loop that
/// stops turning is restarted.
final class WatchdogSource: EventSource {
    let notifier: ServiceNotifier
    let interval: Double
    private var last = -Double.infinity

    init(_ notifier: ServiceNotifier, interval: Double) {
        self.notifier = notifier
        self.interval = interval
    }

    func forEachDescriptor(_ body: (Int32) -> Void) {}
    var nextWake: Double? { last + interval }

    func service(now: Double) -> [KioskEvent] {
        guard now >= last + interval else { return [] }
        notifier.send("WATCHDOG=1")
        last = now
        return []
    }
}
