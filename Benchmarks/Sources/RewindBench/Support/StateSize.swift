import Foundation

/// The three state sizes of the table, with the state built for each and its measured JSON size.
///
/// Threading: a plain value; `Sendable`.
struct StateSize: Sendable {
    /// `1 kB`, `100 kB`, `1 MB`.
    let label: String
    /// The state.
    let state: BenchState
    /// The length of its `JSONEncoder` encoding, bytes.
    let jsonBytes: Int

    /// A state of about `bytes` bytes of JSON, labelled `label`.
    init(_ label: String, bytes: Int) {
        self.label = label
        state = BenchState.sized(bytes)
        jsonBytes = (try? JSONEncoder().encode(state).count) ?? 0
    }

    /// 1 kB, 100 kB and 1 MB.
    static func all() -> [StateSize] {
        [StateSize("1 kB", bytes: 1_000), StateSize("100 kB", bytes: 100_000), StateSize("1 MB", bytes: 1_000_000)]
    }

    /// The label with the exact size: `1 MB (1,000,123 B)`.
    var longLabel: String {
        "\(label) (\(groupedBytes) B)"
    }

    private var groupedBytes: String {
        let digits = String(jsonBytes)
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }
}
