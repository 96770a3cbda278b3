#if canImport(Glibc)
import Glibc
#endif
import CDRM
import SystemIO

/// One DRM card as the kiosk holds it: the device opened once, DRM master,
/// the VT it shows on, the CRTCs handed to its outputs, and the flip events
/// of its one descriptor, each passed to the output it belongs to. A Pi 4
/// or 5 drives both HDMI ports from one card; each is a `DRMOutput` of it,
/// with its own mode, buffers and power, presenting on its own.
public final class DRMCard: DisplaySession {
    public let device: DRMDevice
    /// The outputs shown, in the order they were asked for. Each refers to
    /// its card without holding it: whoever shows the outputs holds the card.
    public private(set) var outputs: [DRMOutput] = []
    /// False while another VT is in front: nothing is ours to draw then.
    public private(set) var ownsDisplay = true
    private var console: VirtualTerminal?
    private var restored = false

    /// What to show on one output: its connector's name (nil: the first
    /// connected one), and the mode and turn wanted there.
    public struct OutputRequest: Sendable {
        public var name: String?
        public var size: (width: Int, height: Int)?
        public var refresh: Double?
        public var rotation: DisplayRotation

        public init(name: String? = nil, size: (width: Int, height: Int)? = nil, refresh: Double? = nil, rotation: DisplayRotation = .upright) {
            self.name = name
            self.size = size
            self.refresh = refresh
            self.rotation = rotation
        }
    }

    /// Opens the card that has every output asked for (any card: they are
    /// numbered in probe order, which changes between boots, and a Pi 5's DSI
    /// panel is a card of its own), takes it, and sets each output up.
    /// A name may also be a /dev/dri path: that card's first connected output.
    public init(showing requests: [OutputRequest], format: ScanoutPixelFormat = .xrgb8888) throws {
        precondition(!requests.isEmpty, "a card shows at least one output")
        let (device, connectors) = try Self.choose(requests.map(\.name))
        self.device = device
        guard device.supportsDumbBuffers else {
            throw DisplayError("\(device.path): the driver offers no dumb buffers, which the kiosk draws into")
        }
        guard device.becomeMaster() else {
            throw DisplayError("\(device.path): another program holds the display (a desktop session?): stop it, or run the kiosk on a free VT",
                               kind: .unavailable)
        }
        var taken: Set<UInt32> = []
        let crtcs = device.crtcIDs()
        do {
            for (request, connector) in zip(requests, connectors) {
                let crtc = try Self.crtc(for: connector, on: device, among: crtcs, taken: taken)
                taken.insert(crtc)
                outputs.append(try DRMOutput(card: self, connector: connector, crtcID: crtc, crtcIndex: crtcs.firstIndex(of: crtc) ?? 0,
                                             request: request, format: format))
            }
        } catch {
            for output in outputs { output.restore() }
            device.dropMaster()
            throw error
        }
        console = VirtualTerminal.enterGraphics()
    }

    deinit { restore() }

    /// The CRTC for a connector: the one driving it now (no mode change
    /// needed), else the first it can use that no other output has.
    static func crtc(for connector: DRMDevice.Connector, on device: DRMDevice, among crtcs: [UInt32], taken: Set<UInt32>) throws -> UInt32 {
        if let current = device.currentCRTC(of: connector), !taken.contains(current) { return current }
        for (index, id) in crtcs.enumerated() where connector.possibleCRTCs & (1 << UInt32(index)) != 0 && !taken.contains(id) {
            return id
        }
        throw DisplayError("\(connector.name): no free CRTC can drive it (\(crtcs.count) on \(device.path), \(taken.count) taken)", kind: .badConfiguration)
    }

    /// The card and its connectors for `names`, in their order. With no name:
    /// the first connected connector of any card, else (composite outputs
    /// cannot sense a screen) the first whose status is unknown.
    static func choose(_ names: [String?]) throws -> (DRMDevice, [DRMDevice.Connector]) {
        var cards = DRMDevice.cardPaths()
        let single = names.count == 1 ? names[0] : nil
        if let single, single.hasPrefix("/dev/") { cards = [single] }
        guard !cards.isEmpty else { throw DisplayError("no DRM device: /dev/dri has no card (no GPU driver loaded?)", kind: .unavailable) }
        let wanted = names.compactMap { $0 }.filter { !$0.hasPrefix("/dev/") }
        var seen: [String] = []
        var firstError: Error?
        var foundOn: [String: String] = [:]
        var unknown: (DRMDevice, DRMDevice.Connector)?
        for path in cards {
            let device: DRMDevice
            do { device = try DRMDevice(path: path) } catch { firstError = firstError ?? error; continue }
            let connectors = device.connectors()
            for c in connectors { seen.append("\(c.name) (\(path), \(c.status.rawValue))") }
            if wanted.isEmpty {
                if let c = connectors.first(where: { $0.connected && !$0.modes.isEmpty }) { return (device, [c]) }
                if unknown == nil, let c = connectors.first(where: { $0.status == .unknown && !$0.modes.isEmpty }) { unknown = (device, c) }
                continue
            }
            let here = wanted.compactMap { name in connectors.first { $0.name == name } }
            if here.count == wanted.count { return (device, here) }
            for c in here { foundOn[c.name] = path }
        }
        if let unknown {
            Log.line("radar-kiosk: no connector says a screen is connected: taking \(unknown.1.name), whose status is unknown (composite)")
            return (unknown.0, [unknown.1])
        }
        if let firstError, seen.isEmpty { throw firstError }
        let outputs = seen.isEmpty ? "none" : seen.joined(separator: ", ")
        if wanted.isEmpty { throw DisplayError("no connected display; outputs: \(outputs)", kind: .unavailable) }
        if let missing = wanted.first(where: { foundOn[$0] == nil }) {
            throw DisplayError("no output named \(missing); outputs: \(outputs)", kind: .unavailable)
        }
        let places = wanted.map { "\($0) on \(foundOn[$0]!)" }.joined(separator: ", ")
        throw DisplayError("the outputs asked for are on different cards (\(places)): the kiosk shows the outputs of one card", kind: .badConfiguration)
    }

    /// The card's descriptor, to poll for flip events.
    public var fd: Int32 { device.fd }

    /// Where the flip handler writes the kernel's timestamp of a completed
    /// flip: the user data of each output's flips is its own slot, so one
    /// read of the descriptor tells each output about its own flips.
    private static let flipHandler: @convention(c) (Int32, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = { _, _, seconds, microseconds, data in
        data?.assumingMemoryBound(to: Double.self).pointee = Double(seconds) + Double(microseconds) / 1e6
    }

    /// Reads the flip events waiting on the descriptor and passes each to its output.
    public func handleEvents() {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = Self.flipHandler
        for output in outputs { output.flipStamp.pointee = 0 }
        // Non-blocking: with nothing to read it returns at once.
        _ = drmHandleEvent(device.fd, &context)
        for output in outputs { output.eventsRead() }
    }

    // MARK: the session

    public func enableTerminalSwitching(signal: Int32) { console?.enableSwitching(signal: signal) }

    /// Leaving: every output stops drawing, DRM master goes, the switch may
    /// happen. Back: master again, every output sets its mode and repaints.
    public func handleSwitchSignal() -> PresenterChange? {
        guard let console else { return nil }
        // One signal means both; while a release is pending VT_GETSTATE still
        // names this VT, so what we hold now decides which it is.
        if !ownsDisplay {
            console.acknowledgeAcquire()
            guard device.becomeMaster() else { return nil }
            ownsDisplay = true
            for output in outputs { output.regained() }
            return .reacquired
        }
        ownsDisplay = false
        for output in outputs { output.released() }
        device.dropMaster()
        console.allowRelease()
        return .released
    }

    /// Every output as it was found, then the console, then master.
    public func restore() {
        guard !restored else { return }
        restored = true
        for output in outputs { output.restore() }
        console?.restore()
        console = nil
        device.dropMaster()
    }
}
