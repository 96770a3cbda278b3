import KioskModel
import KioskRendering
import SystemIO

extension FrameTick {
    /// Carries out what the controller asked for after an event: its log
    /// lines, a screenshot of the picture drawn last, and the reply, handed to
    /// `reply` (the sender's connection, standard output, or the log).
    func complete(_ response: KioskController.Response, reply: (String) -> Void) {
        for line in response.log { Log.line(line) }
        if let path = response.screenshotPath {
            let answer = Screenshot.write(frame, to: path)
            if answer == KioskCommand.okReply { Log.line("radar-kiosk: screenshot \(path)") }
            reply(answer)
        } else if let answer = response.reply {
            reply(answer)
        }
    }
}
