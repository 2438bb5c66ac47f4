extension JSONValueEncoder {
    /// How the keys of the objects an encoding produces are written.
    ///
    /// Threading: a plain value; any thread.
    public enum KeyStyle: Sendable, Hashable {
        /// Every key as the value's `encode(to:)` wrote it.
        case asEncoded
        /// The storage of Swift's `@Observable` and TCA's `@ObservableState` read as the properties it stands for,
        /// so that a type whose `Codable` conformance is synthesized from that storage is recorded as it reads in
        /// code (and as reflection shows it):
        /// - a key `_$…` (the observation registrar and any other bookkeeping member those macros add) is left out,
        ///   with its value;
        /// - a key `_name` is written `name`, unless the same object also has a key `name` (both are then kept as they
        ///   are). `_` alone and `_0`, `_1`… (the keys of unlabelled associated values in synthesized enum coding,
        ///   which no stored property can be named) are kept.
        ///
        /// The rule applies to every object, string-keyed dictionaries included, and is applied as each object is
        /// finished: an incremental encoding (``encode(_:memo:)``) costs nothing more for it.
        case observationStorage
    }
}

/// The object keys ``JSONValueEncoder/KeyStyle/observationStorage`` writes, worked out once per distinct key list and
/// reused for every object with that list (every instance of a struct type shares its keys).
///
/// Not thread-safe: each ``ValueEncoder`` keeps its own.
struct ObservationStorageKeys {
    /// The keys the cached answer was worked out for.
    private var source: [String] = []
    /// The keys written for ``source``, nil when they are ``source`` unchanged.
    private var styled: [String]? = nil
    /// Positions of ``source`` left out, ascending.
    private var leftOut: [Int] = []

    /// `keys` and `values` (one value per key) as the style writes them.
    mutating func restyle(keys: [String], values: [JSONValue]) -> (keys: [String], values: [JSONValue]) {
        if keys != source { learn(keys) }
        guard let styled else { return (keys, values) }
        guard !leftOut.isEmpty else { return (styled, values) }
        var kept = values
        for position in leftOut.reversed() { kept.remove(at: position) }
        return (styled, kept)
    }

    private mutating func learn(_ keys: [String]) {
        source = keys
        leftOut = []
        var written: [String] = []
        written.reserveCapacity(keys.count)
        var changed = false
        let present = keys.count > 8 ? Set(keys) : nil
        for (position, key) in keys.enumerated() {
            if Self.isBookkeeping(key) {
                leftOut.append(position)
                changed = true
            } else if let bare = Self.bareName(key), !(present?.contains(bare) ?? keys.contains(bare)) {
                written.append(bare)
                changed = true
            } else {
                written.append(key)
            }
        }
        styled = changed ? written : nil
    }

    /// True for `_$…` keys: observation bookkeeping, not state.
    static func isBookkeeping(_ key: String) -> Bool {
        var bytes = key.utf8.makeIterator()
        return bytes.next() == UInt8(ascii: "_") && bytes.next() == UInt8(ascii: "$")
    }

    /// `name` for a key `_name`; nil for other keys, `_` alone, `_$…` bookkeeping and `_0`, `_1`….
    static func bareName(_ key: String) -> String? {
        guard key.utf8.first == UInt8(ascii: "_"), let second = key.utf8.dropFirst().first else { return nil }
        guard second != UInt8(ascii: "$"), !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(second) else {
            return nil
        }
        return String(key.dropFirst())
    }
}
