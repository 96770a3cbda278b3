#if canImport(Glibc)
import Glibc
#endif
import CDRM
import SystemIO

/// One DRM card node (/dev/dri/cardN), opened once. All libdrm calls and the
/// unsafe pointer work they need stay inside this type, DRMCard and DRMOutput.
public final class DRMDevice {
    public let path: String
    private let descriptor: FileDescriptor
    public var fd: Int32 { descriptor.rawValue }

    /// A connector as `outputs` lists it.
    public struct Connector: Sendable {
        /// What the connector says of a screen on it. Composite outputs
        /// (a Pi's TV out) cannot sense one and say `unknown`.
        public enum Status: String, Sendable {
            case connected, disconnected, unknown
        }
        public let id: UInt32
        public let name: String
        public let status: Status
        public var connected: Bool { status == .connected }
        public let modes: [Mode]
        public let encoderID: UInt32
        public let possibleCRTCs: UInt32
        /// The screen's visible size as the connector reports it (from the
        /// panel's EDID or the driver), mm; 0 when unknown.
        public let widthMM: Int, heightMM: Int
        /// The preferred mode, else the first.
        public var preferredMode: Mode? { modes.first { $0.preferred } ?? modes.first }
    }

    /// A display mode; keeps libdrm's struct to hand back to the kernel.
    public struct Mode: Sendable, CustomStringConvertible, DisplayModeShape {
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
        do {
            descriptor = try FileDescriptor.open(path, O_RDWR | O_NONBLOCK)
        } catch let e as SystemError {
            if e.code == EACCES || e.code == EPERM {
                throw DisplayError("\(path): permission denied: add the user to the 'video' group, or run the kiosk as its service",
                                   kind: .unavailable)
            }
            throw DisplayError("\(path): cannot open (\(e.reason))", kind: e.code == ENOENT || e.code == ENXIO || e.code == ENODEV ? .unavailable : .failed)
        }
        self.path = path
    }

    /// Card nodes present on this machine, in name order (never assumed to be card0).
    public static func cardPaths() -> [String] { Directory.entries(of: "/dev/dri", prefix: "card") }

    /// Whether the driver can make dumb buffers (the CPU-drawn scanout memory the kiosk needs).
    public var supportsDumbBuffers: Bool {
        var value: UInt64 = 0
        return drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &value) == 0 && value != 0
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
                                    status: Self.status(c.pointee.connection), modes: modes,
                                    encoderID: c.pointee.encoder_id, possibleCRTCs: possible,
                                    widthMM: Int(c.pointee.mmWidth), heightMM: Int(c.pointee.mmHeight)))
        }
        return result
    }

    private static func status(_ connection: drmModeConnection) -> Connector.Status {
        switch connection {
        case DRM_MODE_CONNECTED: return .connected
        case DRM_MODE_DISCONNECTED: return .disconnected
        default: return .unknown
        }
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

    /// The primary plane feeding the CRTC at `crtcIndex`, with its "rotation"
    /// property and the rotations it offers (bit n set: DRM_MODE_ROTATE_* 1 << n).
    public struct PlaneRotation {
        public let planeID: UInt32
        public let propertyID: UInt32
        public let supported: UInt64
    }

    public func primaryPlaneRotation(crtcIndex: Int) -> PlaneRotation? {
        // Primary planes are listed only to clients that ask for all planes.
        guard drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0,
              let planes = drmModeGetPlaneResources(fd) else { return nil }
        defer { drmModeFreePlaneResources(planes) }
        for i in 0..<Int(planes.pointee.count_planes) {
            let id = planes.pointee.planes[i]
            guard let plane = drmModeGetPlane(fd, id) else { continue }
            let feeds = plane.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0
            drmModeFreePlane(plane)
            guard feeds, let properties = drmModeObjectGetProperties(fd, id, UInt32(DRM_MODE_OBJECT_PLANE)) else { continue }
            defer { drmModeFreeObjectProperties(properties) }
            var isPrimary = false
            var rotation: PlaneRotation?
            for p in 0..<Int(properties.pointee.count_props) {
                guard let property = drmModeGetProperty(fd, properties.pointee.props[p]) else { continue }
                defer { drmModeFreeProperty(property) }
                let name = withUnsafeBytes(of: property.pointee.name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                if name == "type" { isPrimary = properties.pointee.prop_values[p] == UInt64(DRM_PLANE_TYPE_PRIMARY) }
                if name == "rotation" {
                    var supported: UInt64 = 0
                    for e in 0..<Int(property.pointee.count_enums) where property.pointee.enums[e].value < 64 {
                        supported |= 1 << property.pointee.enums[e].value
                    }
                    rotation = PlaneRotation(planeID: id, propertyID: property.pointee.prop_id, supported: supported)
                }
            }
            if isPrimary { return rotation }
        }
        return nil
    }

    /// Sets a plane's property; false when the driver refuses the value.
    public func setPlaneProperty(plane: UInt32, property: UInt32, value: UInt64) -> Bool {
        drmModeObjectSetProperty(fd, plane, UInt32(DRM_MODE_OBJECT_PLANE), property, value) == 0
    }

    /// The id of a connector's property by name ("DPMS"), if the driver has it.
    public func connectorProperty(_ connector: UInt32, named wanted: String) -> UInt32? {
        guard let properties = drmModeObjectGetProperties(fd, connector, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else { return nil }
        defer { drmModeFreeObjectProperties(properties) }
        for p in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[p]) else { continue }
            defer { drmModeFreeProperty(property) }
            let name = withUnsafeBytes(of: property.pointee.name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name == wanted { return property.pointee.prop_id }
        }
        return nil
    }

    /// Sets a connector's property; false when the driver refuses the value.
    public func setConnectorProperty(connector: UInt32, property: UInt32, value: UInt64) -> Bool {
        drmModeObjectSetProperty(fd, connector, UInt32(DRM_MODE_OBJECT_CONNECTOR), property, value) == 0
    }
}
