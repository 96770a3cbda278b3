import KioskModel
import Raster
import RasterIO

/// Writes the picture on screen (the cached frame, never the scanout buffer)
/// to a PNG, answering as a command does.
public enum Screenshot {
    /// Writes `frame` to `path`; the command reply, `{"ok":true}` or the error.
    public static func write(_ frame: PixelBuffer, to path: String) -> String {
        do {
            try PNGFile.write(frame, to: path)
            return KioskCommand.okReply
        } catch {
            return KioskCommand.errorReply("\(error)")
        }
    }
}
