import Feed
import KioskModel
import SystemIO

/// The live ADS-B feed, and the moment its hold runs out.
final class FeedInput: EventSource {
    let source: any FeedSource
    let interpreter: FeedInterpreter

    init(_ source: any FeedSource, interpreter: FeedInterpreter) {
        self.source = source
        self.interpreter = interpreter
    }

    func forEachDescriptor(_ body: (Int32) -> Void) { source.forEachDescriptor(body) }
    func forEachWritableDescriptor(_ body: (Int32) -> Void) { source.forEachWritableDescriptor(body) }

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
