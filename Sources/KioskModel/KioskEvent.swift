import Display
import Feed
import Input
import SystemIO

/// Everything that can happen to the kiosk, from any input, as the
/// controller sees it. Sources turn descriptors into these; the controller
/// turns these into state.
public enum KioskEvent: Sendable {
    /// A key pressed on a keyboard or the terminal (a Linux key code), and where.
    case key(code: UInt16, from: String)
    /// A finger on the touchscreen (fractions of the device's axes).
    case touch(TouchEvent)
    /// The linger of an aircraft chosen by touch ran out.
    case selectionLingerEnded
    /// The GPIO line's level after it settled; `initial` is the level at start.
    case gpio(active: Bool, line: String, initial: Bool)
    /// A command line from stdin or the socket; the reply goes back to `client`.
    case commandLine(LineReader.Line, client: CommandClient)
    /// A parsed command from the autoplay script (its replies are logged).
    case scripted(KioskCommand)
    /// The night schedule began or ended a night.
    case night(Bool)
    /// What standby's corner says now (the minute turned, the overflight log changed).
    case standbyInfo(StandbyInfo)
    /// What the feed produced.
    case feed([FeedEvent])
    /// The feed's hold deadline came: the choice is worked out again.
    case feedDeadline
    /// The display went away, came back, or was released to another VT.
    case display(PresenterChange)
    /// A signal for the service itself (stop, reload, screenshot, VT switch).
    case signal(ServiceSignal)
    /// The MQTT broker took the kiosk (again): its retained state is published anew.
    case mqttConnected
    /// A screenshot asked for by `client` was written (or failed): the reply.
    case screenshotWritten(reply: String, client: CommandClient)
}

/// Who sent a command line: the reply goes back there.
public enum CommandClient: Sendable {
    case standardInput
    /// A socket connection, by an opaque number the socket source knows.
    case socket(Int)
    /// An MQTT command topic: the reply is published on TOPIC/reply.
    case mqtt
    case nobody
}

/// The signals the service acts on.
public enum ServiceSignal: Sendable, Equatable {
    case terminate(Int32)
    case reload
    case screenshot
    case switchTerminal
}
