import RewindWire

/// A one-row chart of recent values with the eight block characters ▁▂▃▄▅▆▇█. Pure: safe from any thread.
package enum Sparkline {
    private static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The last `width` samples (oldest first) scaled to the largest of them: zero is a space, anything above
    /// zero at least `▁`, the largest `█` (each block covers an eighth of the
    /// range, rounded up). Shorter input is padded with spaces on the left.
    package static func render(_ samples: [Double], width: Int) -> String {
        guard width > 0 else { return "" }
        let shown = samples.suffix(width)
        let peak = shown.max() ?? 0
        var text = String(repeating: " ", count: width - shown.count)
        for sample in shown {
            if sample <= 0 || peak <= 0 {
                text.append(" ")
            } else {
                let level = Int(saturating: (sample / peak * Double(levels.count)).rounded(.up)) - 1  // NaN, inf: no trap
                text.append(levels[min(max(level, 0), levels.count - 1)])
            }
        }
        return text
    }
}
