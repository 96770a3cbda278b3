/// Vectorised approximations for per-pixel geometry, where libm's scalar
/// calls would dominate a gradient's cost.
public enum FastMath {
    /// atan2(y, x) in radians, eight lanes at once; absolute error below 1.2e-5
    /// (a conic table's entry is 6e-3 radians wide at 1024 entries).
    @inlinable @inline(__always)
    public static func atan2(_ y: SIMD8<Float>, _ x: SIMD8<Float>) -> SIMD8<Float> {
        // Signs and magnitudes by bit masks, and comparisons between vectors only:
        // pointwiseMax/Min and comparisons against a scalar run lane by lane here.
        let magnitude = SIMD8<UInt32>(repeating: 0x7FFF_FFFF)
        let ax = unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt32>.self) & magnitude, to: SIMD8<Float>.self)
        let ay = unsafeBitCast(unsafeBitCast(y, to: SIMD8<UInt32>.self) & magnitude, to: SIMD8<Float>.self)
        // atan(ay / ax) = π/4 + atan(t) with t = (ay - ax) / (ay + ax) in -1...1:
        // one division and no choosing between ay / ax and ax / ay, which cost
        // a comparison and three selects per vector. The tiny term makes the
        // origin t = -1, an angle of 0, instead of 0 / 0.
        let tiny = SIMD8<Float>(repeating: 1e-30)
        let t = (ay - ax - tiny) / (ay + ax + tiny)
        let t2 = t * t
        // Odd minimax polynomial for atan on [-1, 1].
        // Not in addingProduct: without FMA in the target (a generic x86-64
        // build) each lane became a call to libm's fmaf.
        var p: SIMD8<Float> = SIMD8(repeating: 0.0208449875)
        p = p * t2 - 0.0851561082
        p = p * t2 + 0.180159143
        p = p * t2 - 0.330304752
        p = p * t2 + 0.999866327
        var r = p * t + .pi / 4
        r = r.replacing(with: .pi - r, where: x .< SIMD8<Float>.zero)
        // r is not negative here, so y's sign bit makes it -r below the axis.
        let ySign = unsafeBitCast(y, to: SIMD8<UInt32>.self) & ~magnitude
        return unsafeBitCast(unsafeBitCast(r, to: SIMD8<UInt32>.self) | ySign, to: SIMD8<Float>.self)
    }
}
