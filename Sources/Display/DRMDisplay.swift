#if canImport(Glibc)
import Glibc
#endif
import CDRM
import CLinux
import Raster
import SystemIO

/// A DRM/KMS output: drawing happens in an ordinary cached frame; only the
/// rows damaged since a scanout buffer was last filled are copied into it (dumb
/// buffers are write-combined: never read, written once per change), and it is
/// shown with a page flip at the next refresh. The copy also turns the
/// picture for a panel mounted sideways and converts it for 16-bit panels,
/// unless the display controller turns it itself (its plane's rotation).
///
/// On drivers whose flips complete at once (no vblank: virtio-gpu, stock bochs,
/// some USB displays) the loop paces itself with a timer at the mode's refresh
/// instead of spinning; `completesFlipsImmediately` says which kind this is.
public final class DRMDisplay: Presenter {
    public let device: DRMDevice
    public let connector: DRMDevice.Connector
    public let crtcID: UInt32
    public let mode: DRMDevice.Mode
    public let frame: PixelBuffer
    public let rotation: DisplayRotation
    public let format: ScanoutPixelFormat
    /// Turns and converts on the way into the scanout buffer.
    private let copier: ScanoutCopier
    /// The plane's rotation property, when the controller does the turn itself.
    private let planeRotation: DRMDevice.PlaneRotation?
    /// The frame's size: the mode's, swapped for quarter turns.
    public var width: Int { frame.width }
    public var height: Int { frame.height }
    public var refreshRate: Double { mode.refreshRate }
    public var name: String {
        "\(connector.name) on \(device.path), \(mode)" + (keepsCurrentMode ? " (kept)" : "") + (format == .xrgb8888 ? "" : " \(format.rawValue)")
            + (rotation == .upright ? "" : ", turned \(rotation.degrees)°" + (planeRotation != nil ? " by the plane" : ""))
    }

    private struct ScanoutBuffer {
        var handle: UInt32
        var pitch: UInt32
        var size: UInt64
        var memory: UnsafeMutableRawPointer
        var framebuffer: UInt32
        /// What changed in the cached frame since this buffer was last filled.
        var stale: IntRect
    }

    private var buffers: [ScanoutBuffer] = []
    private var front = 0
    private var savedCRTC: UnsafeMutablePointer<drmModeCrtc>?
    private var modeSet = false
    /// Whether the mode is the one the connector already had.
    private let keepsCurrentMode: Bool
    public private(set) var flipPending = false
    /// What the flip stamps say: vblank or not, the flip rate, the pacing.
    public private(set) var pacing: FlipPacing
    /// Set once flips keep completing in well under a refresh period.
    public var completesFlipsImmediately: Bool { pacing.completesImmediately }
    private var console: VirtualTerminal?
    /// Where the flip handler writes the kernel's timestamp of the completed flip.
    private let flipTimestamp = UnsafeMutablePointer<Double>.allocate(capacity: 1)

    /// Opens the output named `outputName` (a connector name such as HDMI-A-1,
    /// or a /dev/dri path), else the first connected connector of any card.
    /// `size` is the mode's (the panel's), before `rotation`.
    public init(outputName: String? = nil, size: (width: Int, height: Int)? = nil, refresh: Double? = nil,
                rotation: DisplayRotation = .upright, format: ScanoutPixelFormat = .xrgb8888) throws {
        let (device, connector) = try DRMDisplay.choose(outputName)
        self.device = device
        self.connector = connector
        guard device.supportsDumbBuffers else {
            throw DisplayError("\(device.path): the driver offers no dumb buffers, which the kiosk draws into")
        }
        guard device.becomeMaster() else {
            throw DisplayError("\(device.path): another program holds the display (a desktop session?): stop it, or run the kiosk on a free VT",
                               kind: .unavailable)
        }
        let current = device.currentCRTC(of: connector)
        guard let choice = ModeChoice.choose(current: current.flatMap { device.currentMode(ofCRTC: $0) }, offered: connector.modes,
                                             preferred: connector.preferredMode, size: size, refresh: refresh) else {
            let list = connector.modes.map(\.description).joined(separator: ", ")
            throw DisplayError("\(connector.name): no mode \(size.map { "\($0.width)x\($0.height)" } ?? "")\(refresh.map { "@\($0)" } ?? ""); it offers \(list)",
                               kind: .badConfiguration)
        }
        let mode = choice.mode
        if let reason = choice.reason { Log.line("radar-kiosk: \(connector.name): \(mode) chosen; \(reason)") }
        keepsCurrentMode = choice.keepsCurrent
        self.mode = mode
        pacing = FlipPacing(refreshRate: mode.refreshRate)
        let crtcs = device.crtcIDs()
        if let current {
            crtcID = current
        } else if let index = (0..<crtcs.count).first(where: { connector.possibleCRTCs & (1 << UInt32($0)) != 0 }) {
            crtcID = crtcs[index]
        } else {
            throw DisplayError("\(connector.name): no CRTC can drive it")
        }
        self.rotation = rotation
        self.format = format
        // A half turn by the plane costs nothing per frame. Quarter turns stay in
        // the copy: through the plane they need a framebuffer the other way round,
        // and the controllers of small boards (vc4) offer only 0 and 180 anyway.
        let halfTurnBit: UInt64 = 1 << 2   // DRM_MODE_ROTATE_180
        if rotation == .halfTurn, let index = crtcs.firstIndex(of: crtcID),
           let plane = device.primaryPlaneRotation(crtcIndex: index), plane.supported & halfTurnBit != 0 {
            planeRotation = plane
        } else {
            planeRotation = nil
        }
        let frameWidth = rotation.swapsAxes ? mode.height : mode.width
        let frameHeight = rotation.swapsAxes ? mode.width : mode.height
        copier = ScanoutCopier(rotation: planeRotation == nil ? rotation : .upright, format: format,
                               frameWidth: frameWidth, frameHeight: frameHeight)
        savedCRTC = drmModeGetCrtc(device.fd, crtcID)
        frame = PixelBuffer(width: frameWidth, height: frameHeight)
        for _ in 0..<2 { buffers.append(try makeBuffer()) }
        console = VirtualTerminal.enterGraphics()
    }

    deinit {
        restore()
        flipTimestamp.deallocate()
    }

    static func choose(_ name: String?) throws -> (DRMDevice, DRMDevice.Connector) {
        var cards = DRMDevice.cardPaths()
        if let name, name.hasPrefix("/dev/") {
            cards = [name]
        }
        guard !cards.isEmpty else { throw DisplayError("no DRM device: /dev/dri has no card (no GPU driver loaded?)", kind: .unavailable) }
        var seen: [String] = []
        var firstError: Error?
        for path in cards {
            let device: DRMDevice
            do { device = try DRMDevice(path: path) } catch { firstError = firstError ?? error; continue }
            for c in device.connectors() {
                seen.append("\(c.name) (\(path), \(c.connected ? "connected" : "disconnected"))")
                if let name, !name.hasPrefix("/dev/") {
                    if c.name == name { return (device, c) }
                } else if c.connected && !c.modes.isEmpty {
                    return (device, c)
                }
            }
        }
        if let firstError, seen.isEmpty { throw firstError }
        if let name, !name.hasPrefix("/dev/") {
            throw DisplayError("no output named \(name); outputs: \(seen.isEmpty ? "none" : seen.joined(separator: ", "))", kind: .unavailable)
        }
        throw DisplayError("no connected display; outputs: \(seen.isEmpty ? "none" : seen.joined(separator: ", "))", kind: .unavailable)
    }

    private func makeBuffer() throws -> ScanoutBuffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        guard drmModeCreateDumbBuffer(device.fd, UInt32(mode.width), UInt32(mode.height), UInt32(format.bitsPerPixel), 0, &handle, &pitch, &size) == 0 else {
            throw DisplayError("\(device.path): cannot create a \(mode.width)x\(mode.height) scanout buffer (\(SystemError.lastReason))")
        }
        // Whatever fails from here gives back what was made before it.
        var memory: UnsafeMutableRawPointer?
        var fb: UInt32 = 0
        var made = false
        defer {
            if !made {
                if fb != 0 { _ = drmModeRmFB(device.fd, fb) }
                if let memory { munmap(memory, Int(size)) }
                _ = drmModeDestroyDumbBuffer(device.fd, handle)
            }
        }
        var offset: UInt64 = 0
        guard drmModeMapDumbBuffer(device.fd, handle, &offset) == 0 else {
            throw DisplayError("\(device.path): cannot map a scanout buffer (\(SystemError.lastReason))")
        }
        let mapped = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, device.fd, off_t(offset))
        guard let mapped, mapped != MAP_FAILED else { throw DisplayError("\(device.path): mmap of a scanout buffer failed (\(SystemError.lastReason))") }
        memory = mapped
        guard drmModeAddFB(device.fd, UInt32(mode.width), UInt32(mode.height), format.depth, format.bitsPerPixel, pitch, handle, &fb) == 0 else {
            let hint = format == .xrgb8888 ? "" : "; the driver may not take \(format.rawValue): try xrgb8888"
            throw DisplayError("\(device.path): cannot add a \(format.rawValue) framebuffer (\(SystemError.lastReason))\(hint)")
        }
        made = true
        // The copier stores pixels of the format's width into this memory.
        if format == .rgb565 {
            _ = mapped.bindMemory(to: UInt16.self, capacity: Int(size) / 2)
        } else {
            _ = mapped.bindMemory(to: UInt32.self, capacity: Int(size) / 4)
        }
        return ScanoutBuffer(handle: handle, pitch: pitch, size: size, memory: mapped, framebuffer: fb,
                             stale: IntRect(x: 0, y: 0, width: frame.width, height: frame.height))
    }

    public var isReadyToPresent: Bool { isConnected && ownsDisplay && !flipPending && isScreenOn }
    public var pacesWithTimer: Bool { completesFlipsImmediately }
    public var eventDescriptor: Int32? { flipPending ? device.fd : nil }

    public var pacingSummary: String {
        // Built in steps: one long chain of optional maps takes older compilers
        // (Debian's Swift 6.2) past their type-checking time limit.
        var summary = completesFlipsImmediately ? ", flips without vblank" : ", flips with vblank"
        if let rate = pacing.rate { summary += " at \((rate * 100).rounded() / 100) Hz" }
        guard let median = pacing.medianInterval else { return summary }
        summary += " (median interval \((median * 100_000).rounded() / 100) ms"
        if !completesFlipsImmediately {
            if let share = pacing.shareOnVblankGrid { summary += ", \((share * 1000).rounded() / 10) % on the vblank grid" }
            if let shortest = pacing.shortestInterval { summary += ", shortest \((shortest * 100_000).rounded() / 100) ms" }
        }
        return summary + ")"
    }

    /// False while the connector is gone (cable out, monitor off): nothing is drawn then.
    public private(set) var isConnected = true
    /// False while another VT is in front: the display is not ours then.
    public private(set) var ownsDisplay = true
    /// False while blanked: the CRTC is off (DPMS off, or disabled where the
    /// connector has no DPMS), the buffers and DRM master kept.
    public private(set) var isScreenOn = true
    /// Woken, the CRTC still off: the next present brings the buffer it holds
    /// up to date and then lights it, so no stale or black picture shows.
    private var wakePending = false
    private lazy var dpmsProperty = device.connectorProperty(connector.id, named: "DPMS")
    private static let dpmsOn: UInt64 = 0, dpmsOff: UInt64 = 3

    public func setScreenOn(_ on: Bool) throws {
        guard on != isScreenOn else { return }
        isScreenOn = on
        if on {
            wakePending = modeSet
            return
        }
        wakePending = false
        waitForPendingFlip()
        guard isConnected && ownsDisplay else { return }
        // Before the first modeset the console lights the output: switched off too.
        if modeSet, let dpms = dpmsProperty, device.setConnectorProperty(connector: connector.id, property: dpms, value: Self.dpmsOff) { return }
        try switchCRTCOff()
    }

    /// Disables the CRTC; the next present modesets again.
    private func switchCRTCOff() throws {
        modeSet = false
        guard drmModeSetCrtc(device.fd, crtcID, 0, 0, 0, nil, 0, nil) == 0 else {
            throw DisplayError("\(connector.name): switching the CRTC off failed (\(SystemError.lastReason))")
        }
    }

    /// Switches VTs cooperatively: the kernel sends `signal` before leaving
    /// this VT and after coming back; `handleSwitchSignal` answers it.
    public func enableTerminalSwitching(signal: Int32) { console?.enableSwitching(signal: signal) }

    /// Answers a VT switch signal. Leaving: drop DRM master, stop drawing, let
    /// the switch happen. Back: take master again, modeset and repaint.
    public func handleSwitchSignal() -> PresenterChange? {
        guard let console else { return nil }
        // One signal means both; while a release is pending VT_GETSTATE still
        // names this VT, so what we hold now decides which it is.
        if !ownsDisplay {
            console.acknowledgeAcquire()
            guard device.becomeMaster() else { return nil }
            ownsDisplay = true
            modeSet = false
            flipPending = false
            for i in buffers.indices { buffers[i].stale = frame.bounds }
            // The console lit the output while it was in front: dark again until woken.
            if !isScreenOn { try? switchCRTCOff() }
            return .reacquired
        }
        ownsDisplay = false
        flipPending = false
        device.dropMaster()
        console.allowRelease()
        return .released
    }

    /// Re-reads the connector after a hotplug event. Gone: the CRTC is switched
    /// off. Back: the next present modesets again and repaints everything.
    /// Returns what changed, if anything.
    public func reprobe() -> PresenterChange? {
        let now = device.connectors().first { $0.id == connector.id }
        let connected = now?.connected ?? false
        if connected == isConnected { return nil }
        isConnected = connected
        modeSet = false
        if !connected {
            do { try switchCRTCOff() } catch { Log.line("radar-kiosk: \(error)") }
            flipPending = false
            return .disconnected
        }
        for i in buffers.indices { buffers[i].stale = frame.bounds }
        return .reconnected
    }

    /// Copies what the back buffer lacks and flips to it. Call only when no flip is pending.
    @discardableResult
    public func present(damage: IntRect, at time: Double) throws -> Double {
        precondition(!flipPending, "present while a flip is pending")
        for i in buffers.indices { buffers[i].stale = buffers[i].stale.union(damage.intersection(frame.bounds)) }
        // Waking, the blanked CRTC still holds the front buffer: that one is brought up to date.
        let back = modeSet && !wakePending ? 1 - front : front
        let region = buffers[back].stale
        // Whole frame rows: upright, one contiguous run per buffer row into write-combined memory.
        let copied = region.isEmpty ? region : IntRect(x: 0, y: region.y, width: frame.width, height: region.height)
        let changed = copier.bufferRect(for: copied)
        if !region.isEmpty {
            copier.copy(copied, of: frame, to: buffers[back].memory, pitch: Int(buffers[back].pitch))
            buffers[back].stale = .empty
        }
        if !modeSet {
            try modeset(showing: back)
            return time
        }
        // Drivers that scan out of shadow memory need to be told what changed.
        var clip = drm_clip_rect(x1: UInt16(max(changed.x, 0)), y1: UInt16(max(changed.y, 0)),
                                 x2: UInt16(min(changed.maxX, mode.width)), y2: UInt16(min(changed.maxY, mode.height)))
        if !region.isEmpty { _ = drmModeDirtyFB(device.fd, buffers[back].framebuffer, &clip, 1) }
        if wakePending {
            wakePending = false
            if let dpms = dpmsProperty, device.setConnectorProperty(connector: connector.id, property: dpms, value: Self.dpmsOn) {
                return time
            }
            try modeset(showing: back)
            return time
        }
        guard drmModePageFlip(device.fd, crtcID, buffers[back].framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), flipTimestamp) == 0 else {
            throw DisplayError("\(connector.name): page flip failed (\(SystemError.lastReason))")
        }
        flipPending = true
        front = back
        return time + 1 / refreshRate
    }

    /// Sets the mode with buffer `index` on the CRTC (lighting it).
    private func modeset(showing index: Int) throws {
        var connectorID = connector.id
        var info = mode.info
        guard drmModeSetCrtc(device.fd, crtcID, buffers[index].framebuffer, 0, 0, &connectorID, 1, &info) == 0 else {
            throw DisplayError("\(connector.name): modeset failed (\(SystemError.lastReason))")
        }
        // Set after every modeset: whoever held the display in between (the console) may have reset it.
        if let plane = planeRotation, !device.setPlaneProperty(plane: plane.planeID, property: plane.propertyID, value: 1 << 2) {
            Log.line("radar-kiosk: \(connector.name): the plane refused a half turn (\(SystemError.lastReason))")
        }
        modeSet = true
        wakePending = false
        front = index
    }

    /// Waits for a pending flip to complete (a few frames at most), then forgets it.
    private func waitForPendingFlip() {
        var waited = 0
        while flipPending && waited < 10 {
            var pending = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pending, 1, 50) > 0 { _ = completeFlip() }
            waited += 1
        }
        flipPending = false
    }

    /// Reads flip events from the device (call when its descriptor is readable).
    public func handleEvents() { _ = completeFlip() }

    /// Reads flip events; true when the pending flip completed.
    private func completeFlip() -> Bool {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, seconds, microseconds, data in
            data?.assumingMemoryBound(to: Double.self).pointee = Double(seconds) + Double(microseconds) / 1e6
        }
        flipTimestamp.pointee = 0
        let before = flipPending
        if drmHandleEvent(device.fd, &context) == 0 && before && flipTimestamp.pointee > 0 {
            flipPending = false
            pacing.record(flipTimestamp.pointee)
            return true
        }
        return false
    }

    /// Puts back the mode and framebuffer the output had before, and the console.
    /// A flip still pending is waited for first (up to a few frames): the
    /// framebuffers it refers to must not go while the controller may scan
    /// them out, and a modeset during a flip can fail with EBUSY.
    public func restore() {
        waitForPendingFlip()
        if let plane = planeRotation {
            _ = device.setPlaneProperty(plane: plane.planeID, property: plane.propertyID, value: 1)   // DRM_MODE_ROTATE_0
        }
        if let saved = savedCRTC {
            var connectorID = connector.id
            if saved.pointee.buffer_id != 0 {
                var savedMode = saved.pointee.mode
                _ = drmModeSetCrtc(device.fd, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x, saved.pointee.y,
                                   &connectorID, 1, &savedMode)
            }
            drmModeFreeCrtc(saved)
            savedCRTC = nil
        }
        console?.restore()
        console = nil
        for b in buffers {
            _ = drmModeRmFB(device.fd, b.framebuffer)
            munmap(b.memory, Int(b.size))
            _ = drmModeDestroyDumbBuffer(device.fd, b.handle)
        }
        buffers.removeAll()
        device.dropMaster()
    }
}
