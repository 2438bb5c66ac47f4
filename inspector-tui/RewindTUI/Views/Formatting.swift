import Foundation
import RewindWire

/// Number and time formatting for the timeline, without Foundation formatters (which are slow to create and
/// depend on the locale in ways a terminal tool should not). Every function takes any `Double` without trapping
/// (a stored session may hold a time of `1e300` or a NaN written by an older version): conversions saturate.
/// Pure functions: safe from any thread.
package enum Formatting {
    /// `12345` → `12,345`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        result.reserveCapacity(digits.count + digits.count / 3 + 1)
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// Time since the session started: `+0.123s`, `+12.345s`, `+3:04.567`, `+1:02:03`; `-…` before the start.
    package static func relativeTime(_ seconds: Double) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let totalMillis = Int(saturating: (abs(seconds) * 1000).rounded())
        let millis = totalMillis % 1000
        let totalSeconds = totalMillis / 1000
        if totalSeconds < 60 {
            return "\(sign)\(totalSeconds).\(pad(millis, 3))s"
        }
        let secondsPart = totalSeconds % 60
        let totalMinutes = totalSeconds / 60
        if totalMinutes < 60 {
            return "\(sign)\(totalMinutes):\(pad(secondsPart, 2)).\(pad(millis, 3))"
        }
        return "\(sign)\(totalMinutes / 60):\(pad(totalMinutes % 60, 2)):\(pad(secondsPart, 2))"
    }

    /// Local wall-clock time of a unix timestamp: `15:30:12.345`.
    package static func clockTime(_ unixSeconds: Double) -> String {
        let parts = localParts(unixSeconds)
        return "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(parts.millis, 3))"
    }

    /// Local date and time to the second: `2026-11-22 15:30:12`.
    package static func dateTime(_ unixSeconds: Double) -> String {
        let parts = localParts(unixSeconds)
        return "\(parts.year)-\(pad(parts.month, 2))-\(pad(parts.day, 2)) "
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
    }

    /// Reducer time: `850ns`, `12µs`, `1.2ms`, `340ms`, `1.5s`.
    package static func duration(micros: Double) -> String {
        if micros < 1 { return "\(Int(saturating: (micros * 1000).rounded()))ns" }
        if micros < 1000 { return "\(Int(saturating: micros.rounded()))µs" }
        let millis = micros / 1000
        if millis < 10 { return "\(oneDecimal(millis))ms" }
        if millis < 1000 { return "\(Int(saturating: millis.rounded()))ms" }
        return "\(oneDecimal(millis / 1000))s"
    }

    /// Sizes in bytes, 1 kB = 1,000 B: `512 B`, `12.3 kB`, `340 kB`, `1.2 MB`, `3.4 GB`.
    package static func bytes(_ count: Int64) -> String {
        let value = Double(max(0, count))
        if value < 1000 { return "\(max(0, count)) B" }
        for (unit, scale) in [("kB", 1e3), ("MB", 1e6), ("GB", 1e9)] where value < scale * 1000 {
            let scaled = value / scale
            return scaled < 10 ? "\(oneDecimal(scaled)) \(unit)" : "\(Int(saturating: scaled.rounded())) \(unit)"
        }
        return "\(oneDecimal(value / 1e12)) TB"
    }

    /// Events per second: `950/s`, `12.3k/s`, `1.2M/s`.
    package static func rate(_ perSecond: Double) -> String {
        if perSecond < 1000 { return "\(Int(saturating: perSecond.rounded()))/s" }
        if perSecond < 1_000_000 { return "\(oneDecimal(perSecond / 1000))k/s" }
        return "\(oneDecimal(perSecond / 1_000_000))M/s"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int(saturating: (value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func localParts(_ unixSeconds: Double)
        -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millis: Int) {
        // Outside the years 1 to 9999 (or not a number) a time is shown as its nearest end.
        let shown = unixSeconds.isNaN ? 0 : min(max(unixSeconds, -62_135_596_800), 253_402_300_799)
        let whole = shown.rounded(.down)
        var seconds = time_t(saturating: whole)
        var millis = Int(saturating: ((shown - whole) * 1000).rounded())
        if millis >= 1000 {
            millis -= 1000
            seconds += 1
        }
        var parts = tm()
        localtime_r(&seconds, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }
}
