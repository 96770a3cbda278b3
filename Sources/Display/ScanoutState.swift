#if canImport(Glibc)
import Glibc
#endif

/// What an output's CRTC shows and what the next present must do with it:
/// set the mode, flip, wait for a flip, ask again for a flip the kernel
/// refused as busy, or light a blanked screen. One value instead of a flag
/// each, so that no two of them can disagree (a flip pending on a CRTC that
/// was never set). The kernel calls are the output's; this says which to make.
public struct ScanoutState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// No buffer of ours is on the CRTC (first frame, back from another
        /// VT, a connector back, the CRTC switched off): the next present sets the mode.
        case needsModeset
        /// Buffer `front` is on the screen; the next present flips to the other.
        case showing
        /// A flip to `front` was asked for and its event has not come.
        case flipPending
        /// The kernel answered the flip to `buffer` with EBUSY: a flip it
        /// still has pending (one asked for before a VT switch, say) is in
        /// the way. Asked again when the next event comes, not a dead display.
        case flipRefused(buffer: Int)
        /// Blanked by DPMS with `front` kept on the CRTC: the next present
        /// brings that buffer up to date and then lights the screen.
        case waking
    }

    public private(set) var phase = Phase.needsModeset
    /// The buffer on the screen (or about to be, once a pending flip completes).
    public private(set) var front = 0
    /// How many refused flips were asked again (for the log at exit).
    public private(set) var flipsRetried = 0

    public init() {}

    /// Whether a present may be made now: not while a flip is pending or refused.
    public var acceptsPresent: Bool {
        switch phase {
        case .flipPending, .flipRefused: return false
        case .needsModeset, .showing, .waking: return true
        }
    }

    /// Whether an event of the device is awaited.
    public var awaitsEvent: Bool { !acceptsPresent }

    /// The buffer the next present draws into: the other one when flipping;
    /// the one on the CRTC when waking (the CRTC still holds it); either on
    /// a modeset, which shows what it is given.
    public var backBuffer: Int { phase == .showing ? 1 - front : front }

    /// The mode was set showing `buffer`.
    public mutating func modeSet(showing buffer: Int) {
        phase = .showing
        front = buffer
    }

    /// The CRTC no longer shows our buffers (switched off, taken by the console, the connector gone).
    public mutating func modeLost() { phase = .needsModeset }

    /// Blanked by DPMS while showing: waking lights `front` again.
    public mutating func blankedKeepingMode() {
        if phase == .showing { phase = .waking }
    }

    /// The screen was lit again on the CRTC as it was.
    public mutating func woke() {
        if phase == .waking { phase = .showing }
    }

    /// Asks for a flip to `buffer` with `request` (0, or the errno of the
    /// refusal). EBUSY leaves it to be asked again on the next event; any
    /// other refusal is returned for the caller to report.
    public mutating func flip(to buffer: Int, request: (Int) -> Int32) -> Int32? {
        let answer = request(buffer)
        switch answer {
        case 0:
            phase = .flipPending
            front = buffer
            return nil
        case EBUSY:
            phase = .flipRefused(buffer: buffer)
            return nil
        default:
            return answer
        }
    }

    /// An event of the device was read: `completed` when it completed our
    /// pending flip. A refused flip is asked again now (the flip in its way
    /// has had its event). Returns an errno the retry was refused with, other than EBUSY.
    public mutating func eventRead(completed: Bool, request: (Int) -> Int32) -> Int32? {
        switch phase {
        case .flipPending where completed:
            phase = .showing
            return nil
        case let .flipRefused(buffer):
            flipsRetried += 1
            return flip(to: buffer, request: request)
        default:
            return nil
        }
    }

    /// A pending flip given up on (waited too long, the display let go): as if it completed.
    public mutating func forgetPendingFlip() {
        switch phase {
        case .flipPending, .flipRefused: phase = .showing
        default: break
        }
    }
}
