/// Trimming for the line-oriented formats the kiosk reads (commands, its
/// configuration, autoplay scripts, SBS-1 lines, feed fields), without Foundation.
extension StringProtocol {
    /// The text without leading and trailing characters from `set` (default:
    /// spaces, tabs and carriage returns).
    public func trimmed(_ set: String = " \t\r") -> String {
        var s = self[...]
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
