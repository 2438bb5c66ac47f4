import RewindSessionFile
import RewindWire

/// What the chart under the timeline's rows shows (`C` cycles them, then hides the chart): one quantity per slice
/// of the session, from a `SessionChart`. A plain value type.
package enum ChartMetric: Int, Sendable, Hashable, CaseIterable {
    /// The recorded state's size at the slice's end (bytes of JSON, as of its last keyframe).
    case stateSize
    /// Actions per second over the slice (its actions over the time from the previous slice's last event).
    case actionRate
    /// The slowest reducer of the slice.
    case reducerTime
    /// The largest stored patch of the slice (bytes of JSON).
    case patchSize

    /// The metric `C` shows after this one; nil after the last (`C` then hides the chart).
    package var next: ChartMetric? {
        ChartMetric(rawValue: rawValue + 1)
    }

    /// Its name in the chart's caption and the status line.
    package var title: String {
        switch self {
        case .stateSize: return "state size"
        case .actionRate: return "action rate"
        case .reducerTime: return "reducer time, slowest"
        case .patchSize: return "patch size, largest"
        }
    }

    /// The bars' colour. Only an addition: the caption names the metric, and bars are block characters.
    package var style: CellStyle {
        switch self {
        case .stateSize: return CellStyle(foreground: .green)
        case .actionRate: return CellStyle(foreground: .cyan)
        case .reducerTime: return CellStyle(foreground: .magenta)
        case .patchSize: return CellStyle(foreground: .blue)
        }
    }

    /// `value` as the chart labels it: bytes, actions per second or a duration.
    package func format(_ value: Double) -> String {
        switch self {
        case .stateSize, .patchSize: return Formatting.bytes(Int64(saturating: value))
        case .actionRate: return Formatting.rate(value)
        case .reducerTime: return Formatting.duration(micros: value)
        }
    }

    /// The metric's value for each of `buckets` (consecutive slices of a session that started at `sessionStart`,
    /// unix seconds); nil for a slice with nothing to show (no rows; for the state, no keyframe at or before it).
    /// The action rate of a slice is its actions over the time from the previous slice's last row (the session's
    /// start for the first) to its own last row, at least a millisecond.
    package func values(of buckets: [SessionChart.Bucket], sessionStart: Double) -> [Double?] {
        var previousEnd = sessionStart
        return buckets.map { bucket in
            defer { if let last = bucket.lastTime { previousEnd = max(previousEnd, last) } }
            switch self {
            case .stateSize:
                return bucket.stateBytes.map(Double.init)
            case .actionRate:
                guard bucket.events > 0, let last = bucket.lastTime else { return nil }
                return Double(bucket.actions) / max(0.001, last - previousEnd)
            case .reducerTime:
                guard bucket.events > 0 else { return nil }
                return bucket.reducerMicrosMax ?? 0
            case .patchSize:
                guard bucket.events > 0 else { return nil }
                return Double(bucket.patchBytesMax)
            }
        }
    }
}
