import Testing
import AnimationCore
import Display
import Raster
import Feed
#if canImport(Glibc)
import Glibc
#endif
@testable import KioskApp
@testable import KioskModel
@testable import KioskRendering

/// A display that fails after some frames, as a DRM device does when its
/// driver goes away: the loop must end with the error (systemd restarts the
/// kiosk), never carry on showing nothing.
final class FailingPresenter: Presenter {
    var physicalSize: (width: Int, height: Int)? { nil }
    let width: Int, height: Int
    let refreshRate = 240.0
    let name = "failing"
    let frame: PixelBuffer
    var presents = 0
    let failAfter: Int
    init(failAfter: Int, width: Int = 64, height: Int = 48) {
        self.failAfter = failAfter
        (self.width, self.height) = (width, height)
        frame = PixelBuffer(width: width, height: height)
    }
    var isReadyToPresent: Bool { true }
    var pacesWithTimer: Bool { true }
    var eventDescriptor: Int32? { nil }
    func handleEvents() {}
    func present(damage: IntRect, at time: Double) throws -> Double {
        presents += 1
        if presents > failAfter { throw DisplayError("failing: page flip failed (No such device)") }
        return time
    }
    func reprobe() -> PresenterChange? { nil }
    var pacingSummary: String { "" }
    var isScreenOn: Bool { true }
    func setScreenOn(_ on: Bool) {}
    func restore() {}
}

@Suite struct EventLoopTests {
    @Test func aPresenterFailingAfterStartEndsTheLoopWithItsError() throws {
        let presenter = FailingPresenter(failAfter: 3)
        let tick = FrameTick(controller: KioskController(layout: KioskLayout(width: 64, height: 48)),
                             renderer: KioskRenderer(fonts: try FontSet()), presenter: presenter)
        let loop = EventLoop(tick: tick, framePeriod: 1 / presenter.refreshRate)
        #expect(throws: DisplayError.self) { try loop.run() }
        #expect(presenter.presents == 4 && loop.framesPresented == 3)
    }

    @Test func aScriptedCommandIsDispatchedAtItsTime() throws {
        let presenter = HeadlessDisplayForTests.make()
        let controller = KioskController(layout: KioskLayout(width: 64, height: 48))
        let loop = EventLoop(tick: FrameTick(controller: controller, renderer: KioskRenderer(fonts: try FontSet()), presenter: presenter),
                             framePeriod: 1 / 240)
        loop.add(ScriptSource([TimedCommand(at: 0.05, command: .set(Demo.sampleOverflight))]))
        var seen: [(KioskEvent, Double)] = []
        loop.dispatch = { event, time in
            seen.append((event, time))
            _ = controller.handle(event, at: time)
            return false
        }
        try loop.run()
        #expect(seen.count == 1 && seen[0].1 >= 0.05 && controller.state == Demo.sampleOverflight)
    }

    /// Two outputs of one controller: the one loop draws and presents each,
    /// each glides to the same state at its own size, and each stops
    /// drawing once its own picture has settled.
    @Test func twoOutputsAreDrawnFromOneController() throws {
        let small = FailingPresenter(failAfter: .max, width: 400, height: 240)
        let large = FailingPresenter(failAfter: .max, width: 800, height: 480)
        let controller = KioskController(layout: KioskLayout(width: small.width, height: small.height))
        let fonts = try FontSet()
        let loop = EventLoop(tick: FrameTick(controller: controller, renderer: KioskRenderer(fonts: fonts), presenter: small),
                             framePeriod: 1 / 240)
        let second = controller.addView(layout: KioskLayout(width: large.width, height: large.height), at: 0)
        loop.add(FrameTick(controller: controller, view: second, renderer: KioskRenderer(fonts: fonts), presenter: large))
        loop.add(ScriptSource([TimedCommand(at: 0.05, command: .set(Demo.sampleOverflight)), TimedCommand(at: 3, command: .get)]))
        var presentsWhenSettled: (Int, Int)?
        loop.dispatch = { event, time in
            if case .scripted(.get) = event {
                presentsWhenSettled = (small.presents, large.presents)
                return false
            }
            _ = controller.handle(event, at: time)
            return true
        }
        try loop.run()
        #expect(small.presents >= 3 && large.presents >= 3, "\(small.presents) and \(large.presents) frames")
        let dials = [controller.view, second].map { $0.renderList.first { $0.id == KioskScene.dialID }?.frame.width ?? 0 }
        #expect(controller.state == Demo.sampleOverflight && dials[1] > dials[0] * 1.3, "dials \(dials)")
        for view in [controller.view, second] {
            #expect(!view.isAnimating(at: loop.now) && !view.isSweeping, "\(view.layout.width) at \(loop.now): \(view.renderList.filter { $0.opacity > 0 }.map { "\($0.id) \($0.opacity)" })")
            #expect(view.renderList.first { $0.id == NodeID("card/background") }?.opacity == 1)
        }
        #expect(presentsWhenSettled.map { $0 == (small.presents, large.presents) } == true)
    }
}

enum HeadlessDisplayForTests {
    static func make() -> HeadlessDisplay { try! HeadlessDisplay(width: 64, height: 48, refreshRate: 240) }
}

@Suite struct FeedAutoTests {
    /// `feed = auto` takes readsb's file, else dump1090-fa's, and watches the first while neither exists.
    @Test func autoTakesTheFirstReceiverFileThatExists() throws {
        let dir = "/tmp/rk-auto-\(getpid())"
        let readsb = dir + "/readsb.json", fa = dir + "/dump1090-fa.json"
        mkdir(dir, 0o700)
        defer { unlink(readsb); unlink(fa); rmdir(dir) }
        #expect(KioskRun.resolved(.auto, candidates: [readsb, fa]) == .file(readsb), "neither: the first is watched")
        close(open(fa, O_CREAT | O_WRONLY, 0o600))
        #expect(KioskRun.resolved(.auto, candidates: [readsb, fa]) == .file(fa))
        close(open(readsb, O_CREAT | O_WRONLY, 0o600))
        #expect(KioskRun.resolved(.auto, candidates: [readsb, fa]) == .file(readsb))
        #expect(KioskRun.resolved(.sbs(host: "x", port: 1)) == .sbs(host: "x", port: 1))
    }

    @Test func autoKnowsTheOtherReceiversAndTheFeedersWebServer() throws {
        #expect(FeedSpec.automaticPaths == ["/run/readsb/aircraft.json", "/run/dump1090-fa/aircraft.json",
                                            "/run/dump1090-mutability/aircraft.json", "/run/skyaware978/aircraft.json"])
        let none = ["/nonexistent/a.json", "/nonexistent/b.json"]
        #expect(KioskRun.resolved(.auto, candidates: none, serverAnswers: { true }) == FeedSpec.automaticURL)
        #expect(FeedSpec.automaticURL == .http(host: "127.0.0.1", port: 8080, path: "/data/aircraft.json"))
        #expect(KioskRun.resolved(.auto, candidates: none, serverAnswers: { false }) == .file(none[0]), "nothing answers: watch readsb's")
        var asked = false
        #expect(KioskRun.resolved(.auto, candidates: ["/proc/self/status"], serverAnswers: { asked = true; return true }) == .file("/proc/self/status"))
        #expect(!asked, "a local file wins without a probe")
        #expect(KioskRun.resolved(.auto, hasStation: false, candidates: none, serverAnswers: { true }) == .file(none[0]),
                "over HTTP there is no receiver.json to take the station from")
    }

    /// The line at start that says where aircraft come from.
    @Test func theJournalSaysWhichFeedWasFound() throws {
        let readsb = try FileFeed(path: "/run/readsb/aircraft.json")
        #expect(KioskRun.feedLine(asked: .auto, resolved: .file("/run/readsb/aircraft.json"), source: readsb, exists: { _ in true })
                == "feed /run/readsb/aircraft.json, found by feed = auto")
        #expect(KioskRun.feedLine(asked: .auto, resolved: .file("/run/readsb/aircraft.json"), source: readsb, exists: { _ in false })
                == "feed = auto: no receiver found on this board; watching /run/readsb/aircraft.json until it appears")
        #expect(KioskRun.feedLine(asked: .file("/run/readsb/aircraft.json"), resolved: .file("/run/readsb/aircraft.json"), source: readsb)
                == "feed /run/readsb/aircraft.json")
        #expect(KioskRun.feedLine(asked: nil, resolved: nil, source: nil)
                == "no feed is set: the dial shows no aircraft (feed = auto finds a receiver on this board)")
        let fi = HTTPFeed(url: "https://opendata.adsb.fi/api/v2/lat/1.0000/lon/2.0000/dist/40", name: "adsb.fi")
        fi.interval = 1.05
        #expect(KioskRun.feedLine(asked: .aggregator(.adsbFi), resolved: .aggregator(.adsbFi), source: fi)
                == "feed adsb.fi (https://opendata.adsb.fi/api/v2/lat/1.0000/lon/2.0000/dist/40, one request every 1.05 s)")
    }
}
