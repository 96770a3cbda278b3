import CFreeType
import CHarfBuzz
import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// Errors from loading fonts, each naming the file or the paths involved.
public struct FontError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Owns the FreeType library handle; every face keeps it alive, so the library
/// is released only after the last face.
final class FreeTypeHandle {
    let library: FT_Library

    init() throws {
        var lib: FT_Library?
        let error = FT_Init_FreeType(&lib)
        guard error == 0, let lib else { throw FontError("FreeType failed to initialise (error \(error))") }
        library = lib
    }

    deinit { FT_Done_FreeType(library) }
}

/// The one FreeType library instance of the process and the faces loaded from it.
public final class FontLibrary {
    let handle: FreeTypeHandle
    private var faces: [String: FontFace] = [:]

    public init() throws {
        handle = try FreeTypeHandle()
    }

    /// Loads (once) the face in the font file at `path`.
    public func face(at path: String) throws -> FontFace {
        if let face = faces[path] { return face }
        let face = try FontFace(library: self, path: path, identifier: faces.count)
        faces[path] = face
        return face
    }

    /// The first of `directories` that holds `fileName`; the error names every path tried.
    public static func locate(_ fileName: String, in directories: [String]) throws -> String {
        var tried: [String] = []
        for dir in directories where !dir.isEmpty {
            let path = dir.hasSuffix("/") ? dir + fileName : dir + "/" + fileName
            if access(path, R_OK) == 0 { return path }
            tried.append(path)
        }
        throw FontError("font \(fileName) not found; tried: \(tried.joined(separator: ", "))")
    }
}

/// One font file: a FreeType face for glyph images and a HarfBuzz font for shaping.
public final class FontFace {
    public let path: String
    /// Small integer naming the face in cache keys.
    public let identifier: Int
    let face: FT_Face
    let shapingFont: OpaquePointer
    private let library: FreeTypeHandle
    /// Units per em of the design grid.
    public let unitsPerEm: Int
    /// Cap height in em from the OS/2 table (0.7 when the table lacks it).
    public let capHeightEm: Float
    public let ascenderEm: Float
    public let descenderEm: Float
    private var currentPixelSize: Int = -1
    private var reportedMissing: Set<UInt32> = []
    /// How many missing characters have been reported (the last one says reporting stops).
    var reportedMissingCount: Int { reportedMissing.count }

    init(library: FontLibrary, path: String, identifier: Int) throws {
        var f: FT_Face?
        let error = FT_New_Face(library.handle.library, path, 0, &f)
        guard error == 0, let f else {
            if access(path, F_OK) != 0 { throw FontError("\(path): font file does not exist") }
            if access(path, R_OK) != 0 { throw FontError("\(path): font file is not readable") }
            throw FontError("\(path): not a font FreeType can read (error \(error))")
        }
        face = f
        self.library = library.handle
        self.path = path
        self.identifier = identifier
        unitsPerEm = Int(f.pointee.units_per_EM)
        let em = Float(max(unitsPerEm, 1))
        ascenderEm = Float(f.pointee.ascender) / em
        descenderEm = Float(-f.pointee.descender) / em
        if let os2 = FT_Get_Sfnt_Table(f, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self),
           os2.pointee.version >= 2, os2.pointee.sCapHeight > 0 {
            capHeightEm = Float(os2.pointee.sCapHeight) / em
        } else {
            capHeightEm = 0.7
        }
        let hbFace = hb_ft_face_create_referenced(f)
        shapingFont = hb_font_create(hbFace)
        hb_face_destroy(hbFace)
        hb_ot_font_set_funcs(shapingFont)
    }

    deinit {
        hb_font_destroy(shapingFont)
        FT_Done_Face(face)
    }

    /// Sets FreeType's active size; sizes are kept in 1/64 pixel.
    func setPixelSize(_ size64: Int) {
        if size64 == currentPixelSize { return }
        FT_Set_Char_Size(face, 0, FT_F26Dot6(size64), 72, 72)
        currentPixelSize = size64
    }

    /// The glyph index of a character, or 0 (.notdef) when the face lacks it,
    /// logged once per character, and for the first `missingReportLimit`
    /// characters only: text from outside full of exotic characters must not
    /// fill the journal.
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        if index == 0 && reportedMissing.count <= Self.missingReportLimit && !reportedMissing.contains(scalar.value) {
            reportedMissing.insert(scalar.value)
            let hex = String(scalar.value, radix: 16, uppercase: true)
            Log.line(reportedMissing.count <= Self.missingReportLimit
                     ? "radar-kiosk: font \(path) has no glyph for U+\(hex); drawing .notdef"
                     : "radar-kiosk: font \(path) lacks more characters; no longer reporting them")
        }
        return UInt32(index)
    }

    /// How many missing characters are reported, at most.
    public static let missingReportLimit = 32
}

/// A face at a pixel size: what text is measured and drawn with.
public struct Font {
    public let face: FontFace
    /// The em size in pixels.
    public let size: Float

    /// Sizes outside 1...1000 px are rejected: nothing on a kiosk needs them,
    /// and they would exhaust the glyph cache.
    public init(face: FontFace, size: Float) throws {
        guard size.isFinite, size >= 1, size <= 1000 else {
            throw FontError("font size \(size) px is out of range 1...1000")
        }
        self.face = face
        self.size = size
    }

    /// A font whose size is clamped into range and rounded to a quarter pixel, so
    /// that sizes that animate reuse a few glyph-cache entries instead of many.
    public init(face: FontFace, approximateSize: Float) {
        self.face = face
        let s = approximateSize.isFinite ? approximateSize : 1
        self.size = (min(max(s, 1), 1000) * 4).rounded() / 4
    }

    var size64: Int { Int((size * 64).rounded()) }
    public var capHeight: Float { face.capHeightEm * size }
    public var ascent: Float { face.ascenderEm * size }
    public var descent: Float { face.descenderEm * size }
}

