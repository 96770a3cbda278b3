/// Vectorised approximations for per-pixel geometry, where libm's scalar
/// calls would dominate a gradient's cost.
public enum FastMath {
    /// atan2(y, x) in radians, eight lanes at once; absolute error below 2e-5.
    @inlinable @inline(__always)
    public static func atan2(_ y: SIMD8<Float>, _ x: SIMD8<Float>) -> SIMD8<Float> {
        let ax = x.replacing(with: -x, where: x .< 0), ay = y.replacing(with: -y, where: y .< 0)
        let mx = pointwiseMax(ax, ay), mn = pointwiseMin(ax, ay)
        let z = mn / mx.replacing(with: 1, where: mx .== 0)
        let z2 = z * z
        // Odd minimax polynomial for atan on [0, 1].
        var p: SIMD8<Float> = SIMD8(repeating: -0.0117212)
        p = p * z2 + 0.05265332
        p = p * z2 - 0.11643287
        p = p * z2 + 0.19354346
        p = p * z2 - 0.33262347
        p = p * z2 + 0.99997726
        var r = p * z
        r = r.replacing(with: .pi / 2 - r, where: ay .> ax)
        r = r.replacing(with: .pi - r, where: x .< 0)
        r = r.replacing(with: -r, where: y .< 0)
        return r
    }
}
