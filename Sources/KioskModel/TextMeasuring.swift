/// Measures text as the renderer will draw it, so the scene can fit a line
/// to the card before it is drawn (the model itself knows no fonts).
public protocol TextMeasuring: AnyObject {
    /// The advance of `text` in `style` at `size` px.
    func width(of text: String, style: KioskStyle, size: Double) -> Double
}
