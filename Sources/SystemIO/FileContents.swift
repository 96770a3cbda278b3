#if canImport(Glibc)
import Glibc
#endif

/// Reads a small file whole (configuration, autoplay, routes, states).
/// Only a regular file is read: a FIFO or a device at the path would block or
/// never end, so it is refused before any read, and the size is bounded.
public enum FileContents {
    /// The file's text, decoded as UTF-8 (a byte-order mark is dropped).
    public static func text(_ path: String, limit: Int = 16 << 20) throws -> String {
        try String(decoding: bytes(path, limit: limit).dropFirstBOM(), as: UTF8.self)
    }

    /// The file's bytes.
    public static func bytes(_ path: String, limit: Int = 16 << 20) throws -> [UInt8] {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY) } catch let e as SystemError {
            throw FileContentsError("\(path): cannot open (\(e.reason))", cause: e)
        }
        guard file.isRegularFile else { throw FileContentsError("\(path): not a regular file") }
        var data: [UInt8] = []
        var info = stat()
        // One allocation of the right size: a large file must not cost twice its size while it grows.
        if fstat(file.rawValue, &info) == 0 { data.reserveCapacity(min(Int(info.st_size), limit) + 1) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            switch chunk.withUnsafeMutableBytes({ file.read(into: $0) }) {
            case let .bytes(n):
                data.append(contentsOf: chunk[0..<n])
                if data.count > limit { throw FileContentsError("\(path): larger than \(limit) bytes") }
            case .end, .wouldBlock:
                return data
            case let .failed(e):
                throw FileContentsError("\(path): cannot read (\(e.reason))")
            }
        }
    }
}

/// A file that cannot be read as text, with its path.
public struct FileContentsError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The failed call, when the file could not be opened or read.
    public let cause: SystemError?
    public init(_ description: String, cause: SystemError? = nil) {
        self.description = description
        self.cause = cause
    }
}

extension Array where Element == UInt8 {
    func dropFirstBOM() -> ArraySlice<UInt8> {
        starts(with: [0xEF, 0xBB, 0xBF]) ? self[3...] : self[...]
    }
}

extension StringProtocol {
    /// The lines of a text file, whichever of LF, CRLF or CR ends them. (In
    /// Swift "\r\n" is one Character, so splitting on "\n" never splits a CRLF file.)
    public var textLines: [Substring] {
        var lines: [Substring] = []
        let whole = Substring(self)
        var start = whole.unicodeScalars.startIndex
        var i = start
        let scalars = whole.unicodeScalars
        while i < scalars.endIndex {
            let c = scalars[i]
            if c == "\n" || c == "\r" {
                lines.append(Substring(scalars[start..<i]))
                let next = scalars.index(after: i)
                i = (c == "\r" && next < scalars.endIndex && scalars[next] == "\n") ? scalars.index(after: next) : next
                start = i
            } else {
                i = scalars.index(after: i)
            }
        }
        if start < scalars.endIndex { lines.append(Substring(scalars[start..<scalars.endIndex])) }
        return lines
    }
}
