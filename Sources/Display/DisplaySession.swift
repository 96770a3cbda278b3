/// What a display holds for the whole process rather than for one output:
/// the right to draw (DRM master) and the virtual terminal it shows on. A
/// card's outputs share it, so a VT switch lets them all go at once and
/// takes them all back; the headless display has none.
public protocol DisplaySession: AnyObject {
    /// Asks the kernel to send `signal` before switching away from the kiosk's
    /// VT and after switching back, instead of switching under it.
    func enableTerminalSwitching(signal: Int32)
    /// Answers the VT switch signal: let every output go, or take them back.
    func handleSwitchSignal() -> PresenterChange?
    /// Gives every output back as it was found, then the console.
    func restore()
}
