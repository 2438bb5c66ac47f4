import Foundation

/// Prints a state as one line of JSON (keys sorted), flushing at once so pipes see it immediately.
///
/// Threading: main actor.
@MainActor
final class StatePrinter<State: Encodable> {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func print(_ state: State) {
        guard var data = try? encoder.encode(state) else { return }
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}
