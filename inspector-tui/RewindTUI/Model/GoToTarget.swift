import Foundation

/// What the go-to prompt (`:`) was asked for: an event number, a time, or a share of the session.
///
/// Forms accepted (spaces around are ignored):
/// - `1234` or `#1234`: event 1234 (0 is the initial state);
/// - `+12.5s`, `+90`, `+250ms`, `+2m`, `+1h`, `+1m30s`: that long after the session started;
/// - `14:03:12`, `14:03`, `14:03:12.250`: that local wall-clock time, on the day the session started (or the
///   day after, for a session that runs past midnight);
/// - `50%`, `12.5%`: that share of the session's events (`0%` the initial state, `100%` the newest event).
///
/// A plain value type.
package enum GoToTarget: Sendable, Hashable {
    /// An event number.
    case event(Int)
    /// Seconds after the session's start.
    case relativeTime(Double)
    /// Seconds since local midnight (a wall-clock time of day).
    case clockTime(Double)
    /// A percentage of the event count, 0…100.
    case percent(Double)

    /// Why a go-to text was not understood: a sentence naming the forms accepted.
    package struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text as typed.
        package let text: String
        /// The sentence shown beside the prompt.
        package var description: String {
            "not an event, time or percentage: '\(text)' (try 1234, +12.5s, 14:03:12 or 50%)"
        }
    }

    /// Parses what the user typed.
    /// - Throws: `Invalid` for anything else.
    package init(parsing raw: String) throws(Invalid) {
        let text = raw.trimmingCharacters(in: .whitespaces)
        let invalid = Invalid(text: raw)
        guard !text.isEmpty else { throw invalid }
        if text.hasSuffix("%") {
            guard let value = Double(text.dropLast().trimmingCharacters(in: .whitespaces)), value.isFinite,
                  value >= 0, value <= 100 else { throw invalid }
            self = .percent(value)
        } else if text.hasPrefix("+") {
            guard let seconds = Self.duration(text.dropFirst()) else { throw invalid }
            self = .relativeTime(seconds)
        } else if text.contains(":") {
            guard let seconds = Self.timeOfDay(text) else { throw invalid }
            self = .clockTime(seconds)
        } else {
            let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                  let number = Int(digits) else { throw invalid }
            self = .event(number)
        }
    }

    /// `12.5s`, `90`, `250ms`, `2m`, `1h`, `1m30s`, `1h2m3.5s` as seconds; nil when malformed.
    static func duration(_ text: Substring) -> Double? {
        var rest = text.trimmingCharacters(in: .whitespaces)[...]
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        var sawUnit = false
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number), value.isFinite else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            switch unit {
            case "": guard !sawUnit, rest.isEmpty else { return nil }; total += value
            case "ms": total += value / 1000
            case "s": total += value
            case "m", "min": total += value * 60
            case "h": total += value * 3600
            default: return nil
            }
            sawUnit = true
        }
        return total
    }

    /// `HH:MM`, `HH:MM:SS`, `HH:MM:SS.fff` as seconds since midnight; nil when malformed.
    static func timeOfDay(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        var seconds = 0.0
        if parts.count == 3 {
            guard parts[2].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(parts[2]),
                  value >= 0, value < 61 else { return nil }
            seconds = value
        }
        return Double(hours * 3600 + minutes * 60) + seconds
    }

    /// The unix time `secondsOfDay` after local midnight of the day `reference` (unix seconds) falls on.
    static func localTime(secondsOfDay: Double, dayOf reference: Double) -> Double {
        var seconds = time_t(reference.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        parts.tm_hour = 0
        parts.tm_min = 0
        parts.tm_sec = 0
        parts.tm_isdst = -1
        let midnight = Double(mktime(&parts))
        return midnight + secondsOfDay
    }
}
