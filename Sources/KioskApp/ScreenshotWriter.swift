#if canImport(Glibc)
import Glibc
#endif
import KioskModel
import Raster
import RasterIO
import SystemIO

/// Screenshots asked for by a command or SIGUSR1, confined and off the loop:
/// only a plain file name, made new (never following a link, never replacing
/// a file, never opening a FIFO) in the screenshot directory; at most one a
/// second and one at a time; the picture copied on the loop and encoded and
/// written on a thread of its own. The reply comes when the file is written.
final class ScreenshotWriter: EventSource {
    var directory: String
    var minimumInterval = 1.0
    private let work = BackgroundWork<String>()
    private var client = CommandClient.nobody
    private var lastRequest = -Double.infinity

    init(directory: String) { self.directory = directory }

    func forEachDescriptor(_ body: (Int32) -> Void) { if work.isBusy { body(work.descriptor) } }
    var nextWake: Double? { work.startedAt.map { $0 + 30 } }

    /// Starts writing `frame` as `name` (a plain file name, or nil for a
    /// dated one); nil when started, else the error reply at once.
    func request(_ name: String?, of frame: PixelBuffer, for client: CommandClient, at now: Double) -> String? {
        let file = name ?? "screenshot-\(Self.wallSeconds()).png"
        guard Self.isPlainFileName(file) else {
            return KioskCommand.errorReply("screenshot: \"path\" must be a file name ending in .png (screenshots go to \(directory))")
        }
        guard !work.isBusy else { return KioskCommand.errorReply("screenshot: one is being written") }
        guard now - lastRequest >= minimumInterval else { return KioskCommand.errorReply("screenshot: at most one a second") }
        lastRequest = now
        self.client = client
        let path = directory + "/" + file
        let width = frame.width, height = frame.height
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height { out.baseAddress!.advanced(by: y * width).update(from: frame.row(y), count: width) }
        }
        let copy = pixels
        work.start(at: now) { Self.write(copy, width: width, height: height, to: path) }
        return nil
    }

    func service(now: Double) -> [KioskEvent] {
        if let reply = work.take() { return [.screenshotWritten(reply: reply, client: client)] }
        if let started = work.startedAt, now - started > 30 {
            work.abandon()
            return [.screenshotWritten(reply: KioskCommand.errorReply("screenshot: not written within 30 s"), client: client)]
        }
        return []
    }

    /// Encodes and writes (on the writer's thread).
    private static func write(_ pixels: [UInt32], width: Int, height: Int, to path: String) -> String {
        let buffer = PixelBuffer(width: width, height: height)
        pixels.withUnsafeBufferPointer { source in
            for y in 0..<height { buffer.row(y).update(from: source.baseAddress!.advanced(by: y * width), count: width) }
        }
        do {
            let bytes = try PNGFile.encode(buffer)
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, mode: 0o640)
            try bytes.withUnsafeBytes { try file.writeAll($0) }
            return KioskCommand.okReply
        } catch let error as SystemError {
            return KioskCommand.errorReply("screenshot: \(path): \(error.code == EEXIST ? "exists already" : error.reason)")
        } catch {
            return KioskCommand.errorReply("screenshot: \(error)")
        }
    }

    static func isPlainFileName(_ name: String) -> Bool {
        name.hasSuffix(".png") && name.utf8.count <= 100 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0 != "/" && $0 != "\\" && $0.value != 0x7F }
    }

    private static func wallSeconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return ts.tv_sec
    }
}
