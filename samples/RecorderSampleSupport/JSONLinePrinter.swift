import Foundation

/// Prints a value as one line of JSON (keys sorted) and flushes, so that pipes and tests see it at once.
///
/// Threading: any thread; each call writes one whole line.
package struct JSONLinePrinter: Sendable {
    /// A printer.
    package init() {}

    /// Writes `value` as one line of JSON on standard output.
    package func print(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(value) else { return }
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}
