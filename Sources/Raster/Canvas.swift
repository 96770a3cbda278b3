#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws paths, strokes, glyph masks and images into a pixel buffer, with a
/// transform, clips, opacity and opacity groups, and records what it touched.
///
/// All scratch memory (flattened paths, stroke outlines, gradient tables,
/// layers) belongs to the canvas and is reused, so a steady frame allocates nothing.
///
/// Pixels changed other than by drawing are changed through `target`: the
/// canvas keeps track of where its last clear's colour still stands.
public final class Canvas {
    /// Drawing state that `save()` and `restore()` keep.
    public struct State {
        public var transform: AffineTransform = .identity
        public var opacity: Float = 1
        public var clipRect: IntRect
        var clipMaskIndex: Int? = nil
    }

    /// The buffer drawn into. Whoever takes it may change its pixels
    /// behind the canvas's back, so the canvas forgets what it knew of them
    /// (`PlainBackground`); the canvas itself draws into `buffer`.
    public var target: PixelBuffer {
        plain.forget()
        return buffer
    }
    private var buffer: PixelBuffer
    /// Where the target still holds the last clear's colour.
    private(set) var plain = PlainBackground()
    public var state: State
    private var savedStates: [State] = []

    let rasterizer = CoverageRasterizer()
    private var flattened = FlattenedPath()
    private(set) var stroker = Stroker()
    private let tables = GradientTableCache()
    private var colorScratch: UnsafeMutablePointer<UInt32>
    private var coverageScratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity = 0
    /// Per target row, what the current gradient fill shaded there (GradientPainter).
    private var shadedRows: UnsafeMutablePointer<SIMD4<Int32>>
    private var shadedRowCapacity = 0
    private var gradientFills: Int32 = 0

    private var clipMasks: [AlphaMask] = []
    private var clipMaskCount = 0

    private struct Group {
        let parent: PixelBuffer
        let layer: PixelBuffer
        let opacity: Float
        let bounds: IntRect
        let damageBefore: IntRect
    }
    private var groups: [Group] = []
    private var layerPool: [PixelBuffer] = []

    /// Directions from a centre, for conic gradients around it: set by a
    /// caller that draws such a ramp frame after frame (a radar's sweep).
    /// Pixels outside its box, and ramps around another centre, are worked
    /// out as ever.
    public var conicAngles: ConicAngleMap?

    /// Rows of the target this canvas never writes, whatever the clip: the
    /// rows another thread draws when a frame is shared out in bands, one of
    /// which lies between the two parts of this canvas's band. Shapes are cut
    /// there as at the clip's top and bottom, so each row's pixels are the
    /// ones drawn without the cut.
    public var skippedRows: Range<Int> = 0..<0

    /// The union of every rectangle drawn since the last `resetDamage()`, in device pixels.
    public private(set) var damage = IntRect.empty

    /// Curves are flattened to within this many device pixels (FlattenedPath
    /// keeps the flattened outline unbiased, so areas stay exact). 0.1 is
    /// cairo's default; half as fine again cost the dial's rings 5 % of a frame
    /// in segments and joins for no visible difference.
    public var tolerance: Float = 0.1

    public init(target: PixelBuffer) {
        self.buffer = target
        state = State(clipRect: target.bounds)
        colorScratch = .allocate(capacity: 1)
        coverageScratch = .allocate(capacity: 1)
        shadedRows = .allocate(capacity: 1)
        ensureScratch(buffer.width)
        ensureShadedRows(buffer.height)
        savedStates.reserveCapacity(16)
        groups.reserveCapacity(8)
    }

    deinit {
        colorScratch.deallocate()
        coverageScratch.deallocate()
        shadedRows.deallocate()
    }

    private func ensureShadedRows(_ height: Int) {
        if height <= shadedRowCapacity { return }
        shadedRows.deallocate()
        shadedRows = .allocate(capacity: height)
        // Fill 0 is never used, so zeroed records belong to no fill.
        shadedRows.initialize(repeating: .zero, count: height)
        shadedRowCapacity = height
    }

    private func ensureScratch(_ width: Int) {
        // One row plus a vector's worth, since shading writes whole lanes of eight.
        let needed = width + 16
        if needed <= scratchCapacity { return }
        colorScratch.deallocate()
        coverageScratch.deallocate()
        colorScratch = .allocate(capacity: needed)
        coverageScratch = .allocate(capacity: needed)
        scratchCapacity = needed
    }

    /// Draws into another buffer from now on (the next back buffer), with a fresh state.
    public func retarget(_ buffer: PixelBuffer) {
        precondition(groups.isEmpty, "retarget inside an opacity group")
        self.buffer = buffer
        plain.forget()
        ensureScratch(buffer.width)
        ensureShadedRows(buffer.height)
        state = State(clipRect: buffer.bounds)
        savedStates.removeAll(keepingCapacity: true)
        clipMaskCount = 0
    }

    public func resetDamage() { damage = .empty }

    /// Returns the rasterizer's memory for shapes larger than those to come
    /// (see `CoverageRasterizer.releaseUnusedMemory`).
    public func releaseUnusedMemory() { rasterizer.releaseUnusedMemory() }

    /// Adds `rect` to the damage: pixels changed by other means (a copy from a cache).
    public func includeDamage(_ rect: IntRect) {
        damage = damage.union(rect.intersection(buffer.bounds))
        plain.drew(rect)
    }

    // MARK: State

    public func save() { savedStates.append(state) }

    public func restore() {
        guard let s = savedStates.popLast() else { return }
        // Masks made since the save are no longer referenced.
        if let i = s.clipMaskIndex { clipMaskCount = i + 1 } else if state.clipMaskIndex != nil { clipMaskCount = 0 }
        state = s
    }

    public var transform: AffineTransform {
        get { state.transform }
        set { state.transform = newValue }
    }

    /// Multiplies every paint's alpha.
    public var opacity: Float {
        get { state.opacity }
        set { state.opacity = min(max(newValue, 0), 1) }
    }

    public func translate(_ x: Float, _ y: Float) {
        state.transform = AffineTransform.translation(x, y).concatenating(state.transform)
    }

    /// Narrows the clip to the device-space bounding box of `rect`.
    public func clip(to rect: Rect) {
        // Two corners as two values: an array here would allocate on every clip.
        let a = state.transform.apply(Point(rect.x, rect.y)), b = state.transform.apply(Point(rect.maxX, rect.maxY))
        let lo = pointwiseMin(a, b), hi = pointwiseMax(a, b)
        let device = IntRect(x: Int(lo.x.rounded()), y: Int(lo.y.rounded()),
                             width: Int(hi.x.rounded()) - Int(lo.x.rounded()), height: Int(hi.y.rounded()) - Int(lo.y.rounded()))
        state.clipRect = state.clipRect.intersection(device)
    }

    /// Narrows the clip to the inside of `path`, antialiased.
    public func clip(to path: Path, rule: FillRule = .nonZero) {
        if clipMaskCount == clipMasks.count || clipMasks[clipMaskCount].width != buffer.width
            || clipMasks[clipMaskCount].height != buffer.height {
            let mask = AlphaMask(width: buffer.width, height: buffer.height)
            if clipMaskCount == clipMasks.count { clipMasks.append(mask) } else { clipMasks[clipMaskCount] = mask }
        }
        let mask = clipMasks[clipMaskCount]
        mask.clear()
        flattened.flatten(path, transform: state.transform, tolerance: tolerance)
        let area = rasterArea(of: flattened.bounds, outset: 1)
        guard !area.isEmpty else {
            // A clip path wholly outside the clip: nothing may be drawn until the restore.
            state.clipRect = .empty
            return
        }
        rasterizer.begin(clip: area)
        addFlattenedFill()
        state.clipRect = state.clipRect.intersection(rasterizer.touchedBounds)
        if let previous = state.clipMaskIndex {
            var painter = ClippedPainter(MaskPainter(mask: mask), mask: clipMasks[previous], scratch: coverageScratch)
            rasterizer.sweep(rule: rule, into: &painter)
        } else {
            var painter = MaskPainter(mask: mask)
            rasterizer.sweep(rule: rule, into: &painter)
        }
        state.clipMaskIndex = clipMaskCount
        clipMaskCount += 1
    }

    // MARK: Drawing

    /// Replaces every pixel inside the clip with `color` (source copy).
    public func clear(_ color: Color) {
        let area = state.clipRect.intersection(buffer.bounds)
        forEachPart(of: area) { buffer.fill(color.premultipliedPixel, in: $0) }
        damage = damage.union(area)
        plain.cleared(area, to: color.premultipliedPixel)
    }

    public func fill(_ path: Path, with paint: Paint, rule: FillRule = .nonZero) {
        flattened.flatten(path, transform: state.transform, tolerance: tolerance)
        let area = rasterArea(of: flattened.bounds, outset: 1)
        // Wholly outside the clip: nothing to draw (and an empty clip is no place to rasterize).
        guard !area.isEmpty else { return }
        rasterizer.begin(clip: area, skipping: skippedRows)
        addFlattenedFill()
        sweep(paint: paint, rule: rule, alpha: 1)
    }

    public func stroke(_ path: Path, style: StrokeStyle, with paint: Paint) {
        flattened.flatten(path, transform: state.transform, tolerance: tolerance)
        var width = style.width * state.transform.lengthScale
        // Hairlines: strokes thinner than a pixel are drawn one pixel wide with
        // proportionally less alpha, which keeps their weight without dropouts.
        var alpha: Float = 1
        if width < 1 { alpha = width; width = 1 }
        // The outline reaches half the width past the path, a miter up to its
        // limit times that, a square cap √2 times it.
        let outset = width / 2 * max(style.miterLimit, 1.5) + 1, box = flattened.bounds
        let area = rasterArea(of: box, outset: outset)
        guard !area.isEmpty else { return }
        rasterizer.begin(clip: area, skipping: skippedRows)
        // A stroke the clip's rows (a band's) cut, or with skipped rows in it, is outlined only where it can be seen.
        let culling = box.map { Float(area.y) > $0.lower.y - outset || Float(area.maxY) < $0.upper.y + outset } ?? true
            || (!skippedRows.isEmpty && skippedRows.overlaps(area.y..<area.maxY))
        // Round caps and joins are inscribed polygons, not area-balanced like
        // FlattenedPath's chords: they get half the tolerance to lose as little.
        stroker.tolerance = tolerance / 2
        let polylines = flattened.polylines
        flattened.points.withUnsafeBufferPointer { all in
            for line in polylines {
                let slice = UnsafeBufferPointer(rebasing: all[line.start..<(line.start + line.count)])
                stroker.stroke(slice, closed: line.closed, halfWidth: width / 2, style: style, into: rasterizer, culling: culling)
            }
        }
        sweep(paint: paint, rule: .nonZero, alpha: alpha)
    }

    /// The part of the clip the flattened path (of bounds `box`), grown by `outset` pixels, can
    /// touch. The rasterizer's cells and sweep then span the shape, not the
    /// whole clip: a full clip's cells are 8 MB at 1920x1080, most of them
    /// never needed by a dial in the middle of the picture.
    private func rasterArea(of box: (lower: Point, upper: Point)?, outset: Float) -> IntRect {
        let clip = state.clipRect
        guard let box, outset.isFinite else { return clip }
        let lower = box.lower - outset, upper = box.upper + outset
        guard lower.x.isFinite, lower.y.isFinite, upper.x.isFinite, upper.y.isFinite else { return clip }
        let x0 = max(Float(clip.x), floorf(lower.x)), y0 = max(Float(clip.y), floorf(lower.y))
        let x1 = min(Float(clip.maxX), ceilf(upper.x)), y1 = min(Float(clip.maxY), ceilf(upper.y))
        guard x1 > x0, y1 > y0 else { return .empty }
        // A shape the clip does not cut is rasterized relative to its own
        // box, so it draws the same pixels whatever the clip around it.
        var top = Int(y0), bottom = Int(y1)
        // Rows skipped at its top or bottom are cut away as the clip's are (a
        // row's pixels do not depend on it); a shape wholly in them is not drawn.
        if skippedRows.contains(top) { top = skippedRows.upperBound }
        if skippedRows.contains(bottom - 1) { bottom = skippedRows.lowerBound }
        guard bottom > top else { return .empty }
        return IntRect(x: Int(x0), y: top, width: Int(x1 - x0), height: bottom - top)
    }

    /// Draws an 8-bit coverage mask (a glyph) with its top-left at device pixel (x, y).
    public func fill(mask: AlphaMask, x: Int, y: Int, with paint: Paint) {
        let area = IntRect(x: x, y: y, width: mask.width, height: mask.height).intersection(state.clipRect)
        if area.isEmpty { return }
        damage = damage.union(area)
        forEachPart(of: area) { withPainter(paint, alpha: 1, over: $0, MaskJob(mask: mask, x: x, y: y, area: $0)) }
    }

    /// Composites `image` with its top-left at device pixel (x, y), times `opacity`.
    public func draw(_ image: PixelBuffer, x: Int, y: Int, opacity: Float = 1) {
        let area = IntRect(x: x, y: y, width: image.width, height: image.height).intersection(state.clipRect)
        let alpha = UInt32(min(max(opacity * state.opacity, 0), 1) * 255 + 0.5)
        if area.isEmpty || alpha == 0 { return }
        damage = damage.union(area)
        plain.drew(area)
        for row in area.y..<area.maxY where !skippedRows.contains(row) {
            SpanCompositor.blend(buffer.row(row) + area.x, source: image.row(row - y) + (area.x - x),
                                 count: area.width, coverage: alpha)
        }
    }

    // MARK: Opacity groups

    /// Starts drawing into a transparent layer; `endGroup()` composites it once
    /// with `opacity`, so overlapping children do not show through each other.
    /// `bounds` (user space) limits the layer's work.
    public func beginGroup(opacity: Float, bounds: Rect? = nil) {
        var area = state.clipRect
        if let b = bounds {
            save()
            clip(to: b)
            area = state.clipRect
            restore()
        }
        let layer = takeLayer()
        layer.fill(0, in: area)
        groups.append(Group(parent: buffer, layer: layer, opacity: opacity * state.opacity, bounds: area, damageBefore: damage))
        // What is known of the parent's pixels is not kept through the group.
        plain.forget()
        save()
        buffer = layer
        state.clipRect = area
        state.opacity = 1
        damage = .empty
    }

    public func endGroup() {
        guard let group = groups.popLast() else { return }
        restore()
        let drawn = damage.intersection(group.bounds)
        buffer = group.parent
        plain.forget()
        damage = group.damageBefore
        let alpha = UInt32(min(max(group.opacity, 0), 1) * 255 + 0.5)
        if alpha > 0 && !drawn.isEmpty {
            for row in drawn.y..<drawn.maxY where !skippedRows.contains(row) {
                SpanCompositor.blend(buffer.row(row) + drawn.x, source: group.layer.row(row) + drawn.x,
                                     count: drawn.width, coverage: alpha)
            }
            damage = damage.union(drawn)
        }
        layerPool.append(group.layer)
    }

    private func takeLayer() -> PixelBuffer {
        while let layer = layerPool.popLast() {
            if layer.width == buffer.width && layer.height == buffer.height { return layer }
        }
        return PixelBuffer(width: buffer.width, height: buffer.height)
    }

    // MARK: Internals

    /// Calls `body` with the parts of `area` outside `skippedRows`: above them, then below.
    @inline(__always)
    private func forEachPart(of area: IntRect, _ body: (IntRect) -> Void) {
        let skipped = skippedRows.clamped(to: area.y..<max(area.maxY, area.y))
        if skipped.isEmpty {
            if !area.isEmpty { body(area) }
            return
        }
        if skipped.lowerBound > area.y {
            body(IntRect(x: area.x, y: area.y, width: area.width, height: skipped.lowerBound - area.y))
        }
        if skipped.upperBound < area.maxY {
            body(IntRect(x: area.x, y: skipped.upperBound, width: area.width, height: area.maxY - skipped.upperBound))
        }
    }

    private func addFlattenedFill() {
        let polylines = flattened.polylines
        flattened.points.withUnsafeBufferPointer { all in
            for line in polylines where line.count >= 2 {
                rasterizer.addPolygon(UnsafeBufferPointer(rebasing: all[line.start..<(line.start + line.count)]))
            }
        }
    }

    private func sweep(paint: Paint, rule: FillRule, alpha: Float) {
        let bounds = rasterizer.touchedBounds
        damage = damage.union(bounds)
        withPainter(paint, alpha: alpha, over: bounds, SweepJob(rasterizer: rasterizer, rule: rule))
    }

    /// Calls `body` with a painter specialised for the paint and the clip, so the
    /// span loops are generic code specialised at compile time, not dynamic
    /// dispatch. `bounds` holds every pixel the job may change.
    private func withPainter<Job: SpanJob>(_ paint: Paint, alpha: Float, over bounds: IntRect, _ body: Job) {
        let opacity = state.opacity * alpha
        // Only a solid paint uses what is known, asked before the job's box counts as drawn.
        var background: (color: UInt32, drawnRows: Range<Int>)?
        if case .solid = paint { background = plain.color(under: bounds) }
        plain.drew(bounds)
        switch paint {
        case let .solid(color):
            let painter = SolidPainter(target: buffer, color: color.withAlpha(color.alpha * opacity).premultipliedPixel,
                                       over: background?.color, except: background?.drawnRows ?? 0..<0)
            clipped(painter, body)
        case let .gradient(gradient):
            let table = tables.table(for: gradient.stops, size: gradientTableSize(gradient), opacity: opacity)
            // Records of earlier fills must not match: after 2^31 fills, start over clean.
            if gradientFills == .max {
                gradientFills = 0
                shadedRows.update(repeating: .zero, count: shadedRowCapacity)
            }
            gradientFills += 1
            let painter = GradientPainter(target: buffer, geometry: deviceGeometry(gradient.geometry),
                                          spread: gradient.spread, table: table, scratch: colorScratch,
                                          shadedRows: buffer.height <= shadedRowCapacity ? shadedRows : nil, fill: gradientFills,
                                          angles: conicAngles)
            clipped(painter, body)
        }
    }

    private func clipped<P: SpanPainter, Job: SpanJob>(_ painter: P, _ body: Job) {
        if let i = state.clipMaskIndex {
            var wrapped = ClippedPainter(painter, mask: clipMasks[i], scratch: coverageScratch)
            body.run(&wrapped)
        } else {
            var p = painter
            body.run(&p)
        }
    }

    private func gradientTableSize(_ gradient: Gradient) -> Int {
        // A conic ramp spreads its table round the whole circle: give it more entries.
        if case .conic = gradient.geometry { return GradientPainter.conicTableSize }
        return 256
    }

    private func deviceGeometry(_ g: Gradient.Geometry) -> Gradient.Geometry {
        let t = state.transform
        switch g {
        case let .linear(start, end):
            return .linear(start: t.apply(start), end: t.apply(end))
        case let .radial(center, radius):
            return .radial(center: t.apply(center), radius: radius * t.lengthScale)
        case let .conic(center, startAngle):
            return .conic(center: t.apply(center), startAngle: startAngle + atan2f(t.b, t.a))
        }
    }
}

/// Work that feeds spans to a painter; generic over the painter so that the
/// canvas can pick the painter at run time and still run specialised loops.
protocol SpanJob {
    func run<P: SpanPainter>(_ painter: inout P)
}

/// Sweeps the rasterizer's accumulated shape.
struct SweepJob: SpanJob {
    let rasterizer: CoverageRasterizer
    let rule: FillRule

    func run<P: SpanPainter>(_ painter: inout P) {
        rasterizer.sweep(rule: rule, into: &painter)
    }
}

/// Paints an 8-bit mask placed at (x, y), limited to `area`.
struct MaskJob: SpanJob {
    let mask: AlphaMask
    let x: Int
    let y: Int
    let area: IntRect

    func run<P: SpanPainter>(_ painter: inout P) {
        for row in area.y..<area.maxY {
            let source = mask.row(row - y) + (area.x - x)
            painter.paintMaskedSpan(y: row, x0: area.x, count: area.width, coverage: source)
        }
    }
}
