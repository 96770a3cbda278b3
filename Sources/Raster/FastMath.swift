/// Vectorised approximations for per-pixel geometry, where libm's scalar
/// calls would dominate a gradient's cost.
public enum FastMath {
    /// atan2(y, x) in radians, eight lanes at once; absolute error below 2e-5.
    @inlinable @inline(__always)
    public static func atan2(_ y: SIMD8<Float>, _ x: SIMD8<Float>) -> SIMD8<Float> {
        // Signs and magnitudes by bit masks, and comparisons between vectors only:
        // pointwiseMax/Min and comparisons against a scalar run lane by lane here.
        let magnitude = SIMD8<UInt32>(repeating: 0x7FFF_FFFF)
        let ax = unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt32>.self) & magnitude, to: SIMD8<Float>.self)
        let ay = unsafeBitCast(unsafeBitCast(y, to: SIMD8<UInt32>.self) & magnitude, to: SIMD8<Float>.self)
        let steep = ay .> ax
        let mx = ax.replacing(with: ay, where: steep), mn = ay.replacing(with: ax, where: steep)
        let z = mn / mx.replacing(with: SIMD8(repeating: 1), where: mx .== SIMD8<Float>.zero)
        let z2 = z * z
        // Odd minimax polynomial for atan on [0, 1].
        // Not in addingProduct: without FMA in the target (a generic x86-64
        // build) each lane became a call to libm's fmaf.
        var p: SIMD8<Float> = SIMD8(repeating: -0.0117212)
        p = p * z2 + 0.05265332
        p = p * z2 - 0.11643287
        p = p * z2 + 0.19354346
        p = p * z2 - 0.33262347
        p = p * z2 + 0.99997726
        var r = p * z
        r = r.replacing(with: .pi / 2 - r, where: steep)
        r = r.replacing(with: .pi - r, where: x .< SIMD8<Float>.zero)
        // r is not negative here, so y's sign bit makes it -r below the axis.
        let ySign = unsafeBitCast(y, to: SIMD8<UInt32>.self) & ~magnitude
        return unsafeBitCast(unsafeBitCast(r, to: SIMD8<UInt32>.self) | ySign, to: SIMD8<Float>.self)
    }
}
