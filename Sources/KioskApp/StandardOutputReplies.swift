#if canImport(Glibc)
import Glibc
#endif
import SystemIO

/// Replies to commands read on standard input, written at once (never held
/// in a buffer until 72 commands have come) and never waited for: on a pipe
/// or socket whose reader is slow or gone, a reply that does not fit is
/// dropped, and said once, rather than stopping the loop.
final class StandardOutputReplies {
    private let output = FileDescriptor(borrowing: 1)
    private var dropping = false

    init() {
        var info = stat()
        if fstat(1, &info) == 0 && (info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFSOCK) {
            output.setNonBlocking()
        }
    }

    func send(_ reply: String) {
        do {
            try output.writeAll(reply + "\n")
            dropping = false
        } catch {
            if !dropping { Log.line("radar-kiosk: standard output is not taking replies (\(error)); dropping them") }
            dropping = true
        }
    }
}
