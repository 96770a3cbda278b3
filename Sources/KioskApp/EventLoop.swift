#if canImport(Glibc)
import Glibc
#endif
import Display
import KioskModel
import KioskRendering
import SystemIO

/// The kiosk's one event loop: poll() on every source's descriptors and on
/// each output's presenter events, a frame on an output whenever its view
/// needs one and its presenter can take it, paced by flip events or, where
/// presents complete at once, by a timer at `framePeriod`. With nothing to
/// draw it sleeps until an input or a source's wake-up time. It knows no
/// input and makes no decision: sources make events, `dispatch` acts on them.
final class EventLoop {
    /// One tick per output, the first output's first.
    private(set) var ticks: [FrameTick]
    /// The first output's tick: the only one with one screen.
    var tick: FrameTick { ticks[0] }
    private(set) var sources: [any EventSource<KioskEvent>] = []
    /// Seconds between timer-paced frames (the mode's period, or longer while nobody watches).
    var framePeriod: Double
    /// Frames of the first output after which the loop ends (recordings, tests).
    var frameLimit: Int?
    /// Acts on one event; false stops the loop.
    var dispatch: (KioskEvent, Double) throws -> Bool = { _, _ in true }
    /// Called after each frame the first output presented, with the count so far.
    var framePresented: (Int) -> Void = { _ in }
    private(set) var framesPresented = 0
    private let start = MonotonicClock.now()

    init(tick: FrameTick, framePeriod: Double) {
        ticks = [tick]
        self.framePeriod = framePeriod
    }

    /// Seconds since the loop was made: the time every source and the controller see.
    var now: Double { MonotonicClock.now() - start }

    func add(_ source: any EventSource<KioskEvent>) { sources.append(source) }

    /// Another output, drawn and paced on its own from the same controller.
    func add(_ tick: FrameTick) { ticks.append(tick) }

    /// Runs until `dispatch` says stop or the frame limit is reached. A failing
    /// presenter or poll throws: the caller exits and systemd restarts the kiosk.
    func run() throws {
        var nextFrame = [Double](repeating: 0, count: ticks.count)
        var fds: [pollfd] = []
        var owners: [Int] = []
        var ready = [Bool](repeating: false, count: sources.count)
        fds.reserveCapacity(32)
        owners.reserveCapacity(32)
        while true {
            var t = now
            if nextFrame.count != ticks.count { nextFrame = [Double](repeating: 0, count: ticks.count) }
            for (index, tick) in ticks.enumerated() {
                guard let presenter = tick.presenter else { return }
                guard presenter.isReadyToPresent && t >= nextFrame[index], try tick.run(at: t) else { continue }
                if index == 0 {
                    framesPresented += 1
                    framePresented(framesPresented)
                    if let frameLimit, framesPresented >= frameLimit { return }
                }
                nextFrame[index] = presenter.pacesWithTimer ? max(nextFrame[index] + framePeriod, t - framePeriod / 2) : t
            }
            // Sleep until a flip completes, the next frame, or a source's wake-up.
            t = now
            var timeout = -1.0
            func sooner(_ at: Double?) {
                guard let at else { return }
                timeout = timeout < 0 ? max(at - t, 0) : min(timeout, max(at - t, 0))
            }
            fds.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            for (index, tick) in ticks.enumerated() {
                guard let presenter = tick.presenter else { continue }
                if let fd = presenter.eventDescriptor {
                    sooner(t + 0.25)
                    // Outputs of one card share its descriptor: polled once, its events go to each of them.
                    guard !fds.contains(where: { $0.fd == fd }) else { continue }
                    fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                    // Presenters are owners below zero: -1 the first output's, -2 the next.
                    owners.append(-1 - index)
                } else if presenter.isReadyToPresent && tick.view.frameNeeded(at: t) {
                    sooner(nextFrame[index])
                }
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
                if owner < 0 { ticks[-1 - owner].presenter?.handleEvents() } else { ready[owner] = true }
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
