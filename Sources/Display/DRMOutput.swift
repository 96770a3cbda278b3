#if canImport(Glibc)
import Glibc
#endif
import CDRM
import CLinux
import Raster
import SystemIO

/// One output of a DRM card (a connector, its CRTC and mode): drawing
/// happens in an ordinary cached frame; only the rows damaged since a scanout
/// buffer was last filled are copied into it (dumb buffers are
/// write-combined: never read, written once per change), and it is shown
/// with a page flip at the next refresh. The copy also turns the picture for
/// a panel mounted sideways and converts it for 16-bit panels, unless the
/// display controller turns it itself (its plane's rotation). What the
/// card's outputs share (master, the VT, the descriptor's events) is the card's.
///
/// On drivers whose flips complete at once (no vblank: virtio-gpu, stock bochs,
/// some USB displays) the loop paces itself with a timer at the mode's refresh
/// instead of spinning; `completesFlipsImmediately` says which kind this is.
public final class DRMOutput: Presenter {
    /// The card this output is of; whoever shows the output holds the card.
    public unowned let card: DRMCard
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
    private var device: DRMDevice { card.device }
    /// The frame's size: the mode's, swapped for quarter turns.
    public var width: Int { frame.width }
    public var height: Int { frame.height }
    public var refreshRate: Double { mode.refreshRate }
    public var physicalSize: (width: Int, height: Int)? {
        guard connector.widthMM > 0, connector.heightMM > 0 else { return nil }
        return rotation.swapsAxes ? (connector.heightMM, connector.widthMM) : (connector.widthMM, connector.heightMM)
    }
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
    /// Set the mode, flip, wait, retry a refused flip, or light a blanked screen.
    public private(set) var scanout = ScanoutState()
    private var savedCRTC: UnsafeMutablePointer<drmModeCrtc>?
    /// Whether the mode is the one the connector already had.
    private let keepsCurrentMode: Bool
    /// What the flip stamps say: vblank or not, the flip rate, the pacing.
    public private(set) var pacing: FlipPacing
    /// Set once flips keep completing in well under a refresh period.
    public var completesFlipsImmediately: Bool { pacing.completesImmediately }
    /// Where the card's flip handler writes the kernel's timestamp of this output's completed flip.
    let flipStamp = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    /// A refused flip asked again on an event and refused otherwise than busy: the next present says so.
    private var failure: DisplayError?
    private var restored = false

    /// Sets up `connector` on `card` with `crtcID` (the card's choice):
    /// the mode asked for (`request.size` is the mode's, the panel's, before
    /// `request.rotation`), buffers and the copy into them.
    init(card: DRMCard, connector: DRMDevice.Connector, crtcID: UInt32, crtcIndex: Int, request: DRMCard.OutputRequest,
         format: ScanoutPixelFormat) throws {
        self.card = card
        self.connector = connector
        self.crtcID = crtcID
        let device = card.device
        let size = request.size, refresh = request.refresh, rotation = request.rotation
        let current = device.currentCRTC(of: connector) == crtcID ? device.currentMode(ofCRTC: crtcID) : nil
        guard let choice = ModeChoice.choose(current: current, offered: connector.modes,
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
        self.rotation = rotation
        self.format = format
        // A half turn by the plane costs nothing per frame. Quarter turns stay in
        // the copy: through the plane they need a framebuffer the other way round,
        // and the controllers of small boards (vc4) offer only 0 and 180 anyway.
        let halfTurnBit: UInt64 = 1 << 2   // DRM_MODE_ROTATE_180
        if rotation == .halfTurn, let plane = device.primaryPlaneRotation(crtcIndex: crtcIndex), plane.supported & halfTurnBit != 0 {
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
        flipStamp.pointee = 0
        do {
            for _ in 0..<2 { buffers.append(try makeBuffer()) }
        } catch {
            restore()
            throw error
        }
    }

    deinit {
        restore()
        flipStamp.deallocate()
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

    public var isReadyToPresent: Bool { isConnected && card.ownsDisplay && isScreenOn && (scanout.acceptsPresent || failure != nil) }
    public var pacesWithTimer: Bool { completesFlipsImmediately }
    public var eventDescriptor: Int32? { scanout.awaitsEvent ? device.fd : nil }

    public var pacingSummary: String {
        // Built in steps: one long chain of optional maps takes older compilers
        // (Debian's Swift 6.2) past their type-checking time limit.
        var summary = completesFlipsImmediately ? ", flips without vblank" : ", flips with vblank"
        if let rate = pacing.rate { summary += " at \((rate * 100).rounded() / 100) Hz" }
        if scanout.flipsRetried > 0 { summary += ", \(scanout.flipsRetried) flips asked again after EBUSY" }
        guard let median = pacing.medianInterval else { return summary }
        summary += " (median interval \((median * 100_000).rounded() / 100) ms"
        if !completesFlipsImmediately {
            if let share = pacing.shareOnVblankGrid { summary += ", \((share * 1000).rounded() / 10) % on the vblank grid" }
            if let shortest = pacing.shortestInterval { summary += ", shortest \((shortest * 100_000).rounded() / 100) ms" }
        }
        // Last: the harness reads the grid share as the number after the median's "ms, ".
        if let worst = pacing.percentile99Interval { summary += ", p99 \((worst * 100_000).rounded() / 100) ms" }
        return summary + ")"
    }

    /// False while the connector is gone (cable out, monitor off): nothing is drawn then.
    public private(set) var isConnected = true
    /// False while blanked: the CRTC is off (DPMS off, or disabled where the
    /// connector has no DPMS), the buffers and DRM master kept.
    public private(set) var isScreenOn = true
    private lazy var dpmsProperty = device.connectorProperty(connector.id, named: "DPMS")
    private static let dpmsOn: UInt64 = 0, dpmsOff: UInt64 = 3

    public func setScreenOn(_ on: Bool) throws {
        guard on != isScreenOn else { return }
        isScreenOn = on
        // Waking: the next present brings the kept buffer up to date and lights it, so no stale or black picture shows.
        if on { return }
        waitForPendingFlip()
        guard isConnected && card.ownsDisplay else { return }
        // Before the first modeset the console lights the output: switched off too.
        if scanout.phase == .showing, let dpms = dpmsProperty,
           device.setConnectorProperty(connector: connector.id, property: dpms, value: Self.dpmsOff) {
            scanout.blankedKeepingMode()
            return
        }
        try switchCRTCOff()
    }

    /// Disables the CRTC; the next present modesets again.
    private func switchCRTCOff() throws {
        scanout.modeLost()
        guard drmModeSetCrtc(device.fd, crtcID, 0, 0, 0, nil, 0, nil) == 0 else {
            throw DisplayError("\(connector.name): switching the CRTC off failed (\(SystemError.lastReason))")
        }
    }

    /// Another VT is in front (the card let master go): any flip pending is forgotten.
    func released() {
        scanout.forgetPendingFlip()
    }

    /// Back on our VT: the console had the CRTC, so the mode is set again and everything drawn again.
    func regained() {
        scanout.modeLost()
        for i in buffers.indices { buffers[i].stale = frame.bounds }
        // The console lit the output while it was in front: dark again until woken.
        if !isScreenOn { try? switchCRTCOff() }
    }

    /// Re-reads the connector after a hotplug event. Gone: the CRTC is switched
    /// off. Back: the next present modesets again and repaints everything.
    /// Blanked at night, it stays dark through it: only waking lights it.
    /// Returns what changed, if anything.
    public func reprobe() -> PresenterChange? {
        let now = device.connectors().first { $0.id == connector.id }
        // A connector that could not sense a screen when it was taken (composite) is there while it says so.
        let connected = now.map { $0.connected || ($0.status == .unknown && connector.status == .unknown) } ?? false
        if connected == isConnected { return nil }
        isConnected = connected
        if !connected {
            waitForPendingFlip()
            do { try switchCRTCOff() } catch { Log.line("radar-kiosk: \(error)") }
            return .disconnected
        }
        scanout.modeLost()
        for i in buffers.indices { buffers[i].stale = frame.bounds }
        return .reconnected
    }

    /// Copies what the back buffer lacks and flips to it. Call only when `isReadyToPresent`.
    @discardableResult
    public func present(damage: IntRect, at time: Double) throws -> Double {
        if let failure {
            self.failure = nil
            throw failure
        }
        precondition(scanout.acceptsPresent, "present while a flip is pending")
        for i in buffers.indices { buffers[i].stale = buffers[i].stale.union(damage.intersection(frame.bounds)) }
        let back = scanout.backBuffer
        let region = buffers[back].stale
        // Whole frame rows: upright, one contiguous run per buffer row into write-combined memory.
        let copied = region.isEmpty ? region : IntRect(x: 0, y: region.y, width: frame.width, height: region.height)
        let changed = copier.bufferRect(for: copied)
        if !region.isEmpty {
            copier.copy(copied, of: frame, to: buffers[back].memory, pitch: Int(buffers[back].pitch))
            buffers[back].stale = .empty
        }
        if scanout.phase == .needsModeset {
            try modeset(showing: back)
            return time
        }
        // Drivers that scan out of shadow memory need to be told what changed.
        var clip = drm_clip_rect(x1: UInt16(max(changed.x, 0)), y1: UInt16(max(changed.y, 0)),
                                 x2: UInt16(min(changed.maxX, mode.width)), y2: UInt16(min(changed.maxY, mode.height)))
        if !region.isEmpty { _ = drmModeDirtyFB(device.fd, buffers[back].framebuffer, &clip, 1) }
        if scanout.phase == .waking {
            if let dpms = dpmsProperty, device.setConnectorProperty(connector: connector.id, property: dpms, value: Self.dpmsOn) {
                scanout.woke()
                return time
            }
            try modeset(showing: back)
            return time
        }
        if let refusal = scanout.flip(to: back, request: requestFlip) {
            throw DisplayError("\(connector.name): page flip failed (\(SystemError.reason(refusal)))")
        }
        return time + 1 / refreshRate
    }

    /// Asks the kernel for a flip to `buffer`, its event stamped into this output's slot; 0 or the errno.
    private func requestFlip(_ buffer: Int) -> Int32 {
        drmModePageFlip(device.fd, crtcID, buffers[buffer].framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), flipStamp) == 0 ? 0 : errno
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
        scanout.modeSet(showing: index)
    }

    /// Waits for a pending or refused flip to be done with (a few frames at most), then forgets it.
    private func waitForPendingFlip() {
        var waited = 0
        while scanout.awaitsEvent && waited < 10 {
            var pending = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pending, 1, 50) > 0 { card.handleEvents() }
            waited += 1
        }
        scanout.forgetPendingFlip()
    }

    /// Reads the card's events (call when its descriptor is readable): they go to every output of the card.
    public func handleEvents() { card.handleEvents() }

    /// The card read its descriptor: a stamp in this output's slot completed its flip.
    func eventsRead() {
        let completed = flipStamp.pointee > 0
        if completed { pacing.record(flipStamp.pointee) }
        if let refusal = scanout.eventRead(completed: completed, request: requestFlip) {
            failure = DisplayError("\(connector.name): page flip failed (\(SystemError.reason(refusal)))")
            scanout.forgetPendingFlip()
        }
    }

    /// Puts back the mode and framebuffer the output had before. A flip
    /// still pending is waited for first (up to a few frames): the
    /// framebuffers it refers to must not go while the controller may scan
    /// them out, and a modeset during a flip can fail with EBUSY.
    public func restore() {
        guard !restored else { return }
        restored = true
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
        for b in buffers {
            _ = drmModeRmFB(device.fd, b.framebuffer)
            munmap(b.memory, Int(b.size))
            _ = drmModeDestroyDumbBuffer(device.fd, b.handle)
        }
        buffers.removeAll()
    }
}
