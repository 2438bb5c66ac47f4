import Foundation

/// Prints a value as one line of JSON (keys sorted) and flushes, so that pipes and tests see it at once.
///
/// Threading: any thread; each call writes one whole line.
public struct JSONLinePrinter: Sendable {
    /// A printer.
    public init() {}

    /// Writes `value` as one line of JSON on standard output.
    public func print(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(value) else { return }
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}
