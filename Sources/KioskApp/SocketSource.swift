import Input
import KioskModel
import SystemIO

/// JSON command lines from the unix socket's clients.
final class SocketSource: EventSource {
    let socket: CommandSocket

    init(_ socket: CommandSocket) { self.socket = socket }

    func forEachDescriptor(_ body: (Int32) -> Void) { socket.forEachDescriptor(body) }
    var nextWake: Double? { nil }

    func service(now: Double) -> [KioskEvent] {
        socket.service()
        return socket.takeQueue().map { .commandLine($0.line, client: .socket($0.client.id)) }
    }
}
