/// Something the event loop waits on: descriptors to poll and a time to be
/// called back at, serviced when either comes. Every input of the kiosk (keys,
/// GPIO, commands, the feed, signals, hotplug, the watchdog, a script) is one,
/// so the loop itself knows none of them.
public protocol EventSource<Event>: AnyObject {
    associatedtype Event
    /// Calls `body` with each descriptor to poll for input now.
    func forEachDescriptor(_ body: (Int32) -> Void)
    /// Calls `body` with each descriptor to poll for room to write now: a
    /// connect in progress (it completes by becoming writable, and a web
    /// server or a broker says nothing until it is asked), or bytes the
    /// peer has not taken yet. Most sources only read: none, by default.
    func forEachWritableDescriptor(_ body: (Int32) -> Void)
    /// When to be serviced even without input (loop time, seconds), if ever.
    var nextWake: Double? { get }
    /// Reads what is ready, within this turn's budget, and returns what it meant.
    /// Called when a descriptor is readable or writable as asked, or `nextWake` has come.
    func service(now: Double) -> [Event]
}

extension EventSource {
    public func forEachWritableDescriptor(_ body: (Int32) -> Void) {}
}
