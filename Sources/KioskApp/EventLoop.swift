#if canImport(Glibc)
import Glibc
#endif
import Display
import KioskModel
import KioskRendering
import SystemIO

/// The kiosk's one event loop: poll() on every source's descriptors and on
/// the presenter's own events, a frame whenever the controller needs one and
/// the presenter can take it, paced by flip events or, where presents
/// complete at once, by a timer at `framePeriod`. With nothing to draw it
/// sleeps until an input or a source's wake-up time. It knows no input and
/// makes no decision: sources make events, `dispatch` acts on them.
final class EventLoop {
    let tick: FrameTick
    private(set) var sources: [any EventSource<KioskEvent>] = []
    /// Seconds between timer-paced frames (the mode's period, or longer while nobody watches).
    var framePeriod: Double
    var frameLimit: Int?
    /// Acts on one event; false stops the loop.
    var dispatch: (KioskEvent, Double) throws -> Bool = { _, _ in true }
    /// Called after each presented frame with the count so far.
    var framePresented: (Int) -> Void = { _ in }
    private(set) var framesPresented = 0
    private let start = MonotonicClock.now()

    init(tick: FrameTick, framePeriod: Double) {
        self.tick = tick
        self.framePeriod = framePeriod
    }

    /// Seconds since the loop was made: the time every source and the controller see.
    var now: Double { MonotonicClock.now() - start }

    func add(_ source: any EventSource<KioskEvent>) { sources.append(source) }

    /// Runs until `dispatch` says stop or the frame limit is reached. A failing
    /// presenter or poll throws: the caller exits and systemd restarts the kiosk.
    func run() throws {
        var nextFrame = 0.0
        var fds: [pollfd] = []
        var owners: [Int] = []
        var ready = [Bool](repeating: false, count: sources.count)
        fds.reserveCapacity(32)
        owners.reserveCapacity(32)
        while true {
            guard let presenter = tick.presenter else { return }
            var t = now
            if presenter.isReadyToPresent && t >= nextFrame, try tick.run(at: t) {
                framesPresented += 1
                framePresented(framesPresented)
                if let frameLimit, framesPresented >= frameLimit { return }
                nextFrame = presenter.pacesWithTimer ? max(nextFrame + framePeriod, t - framePeriod / 2) : t
            }
            // Sleep until the flip completes, the next frame, or a source's wake-up.
            t = now
            var timeout = -1.0
            func sooner(_ at: Double?) {
                guard let at else { return }
                timeout = timeout < 0 ? max(at - t, 0) : min(timeout, max(at - t, 0))
            }
            if presenter.eventDescriptor != nil {
                sooner(t + 0.25)
            } else if presenter.isReadyToPresent && tick.controller.frameNeeded(at: t) {
                sooner(nextFrame)
            }
            fds.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            if let fd = presenter.eventDescriptor {
                fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                owners.append(-1)
            }
            for (index, source) in sources.enumerated() {
                sooner(source.nextWake)
                source.forEachDescriptor { fd in
                    fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                    owners.append(index)
                }
                source.forEachWritableDescriptor { fd in
                    fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0))
                    owners.append(index)
                }
            }
            let result = poll(&fds, nfds_t(fds.count), timeout < 0 ? -1 : Int32(min((timeout * 1000).rounded(.up), 60_000)))
            if result < 0 && errno != EINTR { throw SystemError.last("poll") }
            if ready.count != sources.count { ready = [Bool](repeating: false, count: sources.count) }
            for i in ready.indices { ready[i] = false }
            for (fd, owner) in zip(fds, owners) where fd.revents != 0 {
                if owner < 0 { presenter.handleEvents() } else { ready[owner] = true }
            }
            t = now
            for (index, source) in sources.enumerated() where ready[index] || (source.nextWake.map { t >= $0 } ?? false) {
                for event in source.service(now: t) {
                    if try !dispatch(event, t) { return }
                }
            }
        }
    }
}
