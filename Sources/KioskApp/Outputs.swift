import Display

/// `outputs`: every card's connectors with status and modes; `--free` only answers
/// by exit status whether a connected output can be taken (no desktop holds it).
public func outputsCommand(free: Bool) -> Int32 {
    let cards = DRMDevice.cardPaths()
    if cards.isEmpty {
        if !free { print("no DRM devices (/dev/dri has no card)") }
        return 1
    }
    var anyFree = false
    for path in cards {
        let device: DRMDevice
        do { device = try DRMDevice(path: path) } catch {
            if !free { print("\(path): \(error)") }
            continue
        }
        let master = device.becomeMaster()
        if master { device.dropMaster() }
        let connectors = device.connectors()
        // A composite output cannot sense a screen (status unknown): the kiosk takes it when nothing says connected.
        if connectors.contains(where: { $0.status != .disconnected && !$0.modes.isEmpty }) && master { anyFree = true }
        if free { continue }
        print("\(path)\(master ? "" : " (held by another program)")")
        for c in connectors {
            let crtc = device.currentCRTC(of: c)
            let current = crtc.flatMap { device.currentMode(ofCRTC: $0) }
            print("  \(c.name): \(c.status.rawValue)" + (c.widthMM > 0 && c.heightMM > 0 ? ", \(c.widthMM)x\(c.heightMM) mm" : "")
                  + (current.map { ", showing \($0)" } ?? ""))
            for m in c.modes { print("    \(m)") }
        }
    }
    return free ? (anyFree ? 0 : 1) : 0
}
