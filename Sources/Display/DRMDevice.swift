#if canImport(Glibc)
import Glibc
#endif
import CDRM

/// One DRM card node (/dev/dri/cardN), opened once. All libdrm calls and the
/// unsafe pointer work they need stay inside this type and DRMOutput.
public final class DRMDevice {
    public let path: String
    public let fd: Int32

    /// A connector as `outputs` lists it.
    public struct Connector: Sendable {
        public let id: UInt32
        public let name: String
        public let connected: Bool
        public let modes: [Mode]
        public let encoderID: UInt32
        public let possibleCRTCs: UInt32
        /// The preferred mode, else the first.
        public var preferredMode: Mode? { modes.first { $0.preferred } ?? modes.first }
    }

    /// A display mode; keeps libdrm's struct to hand back to the kernel.
    public struct Mode: Sendable, CustomStringConvertible {
        public let info: drmModeModeInfo
        public var width: Int { Int(info.hdisplay) }
        public var height: Int { Int(info.vdisplay) }
        public var preferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
        /// Refresh in Hz from the pixel clock (more precise than `vrefresh`).
        public var refreshRate: Double {
            let total = Double(info.htotal) * Double(info.vtotal)
            return total > 0 ? Double(info.clock) * 1000 / total : Double(info.vrefresh)
        }
        public var description: String {
            "\(width)x\(height)@\((refreshRate * 100).rounded() / 100)" + (preferred ? " (preferred)" : "")
        }
    }

    public init(path: String) throws {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let e = errno
            if e == EACCES || e == EPERM {
                throw DisplayError("\(path): permission denied: add the user to the 'video' group, or run the kiosk as its service")
            }
            throw DisplayError("\(path): cannot open (\(String(cString: strerror(e))))")
        }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Card nodes present on this machine, in name order (never assumed to be card0).
    public static func cardPaths() -> [String] {
        guard let dir = opendir("/dev/dri") else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("card") { names.append("/dev/dri/" + name) }
        }
        return names.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
    }

    /// Whether this process is (or could become) DRM master: another program
    /// (a desktop) holding the display makes this false.
    public func becomeMaster() -> Bool { drmSetMaster(fd) == 0 }
    public func dropMaster() { _ = drmDropMaster(fd) }

    public func connectors() -> [Connector] {
        guard let res = drmModeGetResources(fd) else { return [] }
        defer { drmModeFreeResources(res) }
        var result: [Connector] = []
        for i in 0..<Int(res.pointee.count_connectors) {
            guard let c = drmModeGetConnector(fd, res.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(c) }
            let typeName = drmModeGetConnectorTypeName(c.pointee.connector_type).map { String(cString: $0) } ?? "Unknown"
            var modes: [Mode] = []
            for m in 0..<Int(c.pointee.count_modes) { modes.append(Mode(info: c.pointee.modes[m])) }
            var possible: UInt32 = 0
            for e in 0..<Int(c.pointee.count_encoders) {
                if let enc = drmModeGetEncoder(fd, c.pointee.encoders[e]) {
                    possible |= enc.pointee.possible_crtcs
                    drmModeFreeEncoder(enc)
                }
            }
            result.append(Connector(id: c.pointee.connector_id, name: "\(typeName)-\(c.pointee.connector_type_id)",
                                    connected: c.pointee.connection == DRM_MODE_CONNECTED, modes: modes,
                                    encoderID: c.pointee.encoder_id, possibleCRTCs: possible))
        }
        return result
    }

    /// CRTC ids in the order the kernel lists them (bit i of possible_crtcs is entry i).
    public func crtcIDs() -> [UInt32] {
        guard let res = drmModeGetResources(fd) else { return [] }
        defer { drmModeFreeResources(res) }
        return (0..<Int(res.pointee.count_crtcs)).map { res.pointee.crtcs[$0] }
    }

    /// The CRTC currently driving `connector`, if any.
    public func currentCRTC(of connector: Connector) -> UInt32? {
        guard connector.encoderID != 0, let enc = drmModeGetEncoder(fd, connector.encoderID) else { return nil }
        defer { drmModeFreeEncoder(enc) }
        return enc.pointee.crtc_id == 0 ? nil : enc.pointee.crtc_id
    }

    /// The mode a CRTC shows now, if it is active.
    public func currentMode(ofCRTC id: UInt32) -> Mode? {
        guard let crtc = drmModeGetCrtc(fd, id) else { return nil }
        defer { drmModeFreeCrtc(crtc) }
        return crtc.pointee.mode_valid != 0 ? Mode(info: crtc.pointee.mode) : nil
    }
}
