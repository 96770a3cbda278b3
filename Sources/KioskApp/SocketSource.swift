import Input
import KioskModel
import SystemIO

/// JSON command lines from the unix socket's clients.
final class SocketSource: EventSource {
    let socket: CommandSocket

    init(_ socket: CommandSocket) { self.socket = socket }

    func forEachDescriptor(_ body: (Int32) -> Void) { socket.forEachDescriptor(body) }
    /// At once while lines wait to be handed out, else when an idle client times out.
    var nextWake: Double? { socket.hasPendingLines ? 0 : socket.nextIdleTimeout }

    func service(now: Double) -> [KioskEvent] {
        socket.service(now: now)
        return socket.takeQueue().map { .commandLine($0.line, client: .socket($0.client.id)) }
    }
}
