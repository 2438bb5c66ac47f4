import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// Opening the session a read-only command names, as `rewind export` does (`SessionStore.resolveSessionID`: an
/// id or a unique prefix). Used by `history`, `state` and `diff`; to be replaced by the shared resolver.
/// Threading: stateless.
enum SessionArguments {
    /// A reader of the session `text` names in `data`'s directory, or a `CommandError` saying why not.
    static func open(_ text: String, data: DataOptions) throws -> SessionReader {
        let store = try data.openStore()
        do {
            if let imported = try CaptureFileArgument.session(for: text, in: store) {
                return try store.openSession(imported)
            }
            return try store.openSession(try store.resolveSessionID(text))
        } catch {
            throw CommandError("\(error)")
        }
    }
}

extension SessionArguments {
    /// The recorded state after event `index` (0: the initial state), or a `CommandError` naming the event and the
    /// session's range of events when there is no such event, or the range of unknown states when the recording
    /// does not hold it.
    static func state(after index: Int64, in reader: SessionReader) throws -> JSONValue {
        guard (0...reader.eventCount).contains(index) else {
            // As the daemon refuses `rewind jump` beyond the recording.
            throw CommandError("session \(reader.id) has no event \(index) (it has 0–\(reader.eventCount); 0 is the "
                               + "initial state)")
        }
        let recorded: RecordedState
        do {
            recorded = try reader.recordedState(after: index)
        } catch {
            throw CommandError("\(error)")
        }
        switch recorded {
        case .known(let state):
            return state
        case .unknown(let range):
            let end = range.last.map { "event \($0)" } ?? "the end of the recording"
            let start = range.first == 0 ? "the initial state" : "event \(range.first)"
            throw CommandError("the state after event \(index) was not recorded (unknown from \(start) to \(end): "
                               + "\(range.reason))")
        }
    }

    /// The value at `pointer` text in `state`, or a `CommandError` saying what is wrong.
    static func value(at pointer: String, in state: JSONValue, after index: Int64) throws -> JSONValue {
        let location: JSONPointer
        do {
            location = try JSONPointer(pointer)
        } catch {
            throw CommandError("'\(pointer)' is not a JSON Pointer: \(error) (a pointer is '' or starts with '/')")
        }
        guard let value = state[location] else {
            throw CommandError("the state after event \(index) has no value at \(pointer)")
        }
        return value
    }
}

extension SessionArguments {
    /// Nothing when session `reader` has branch `branch` (0, the main line, always); otherwise a `CommandError`
    /// saying there is no such branch and naming the branches there are.
    static func requireBranch(_ branch: Int64, in reader: SessionReader) throws {
        let branches: [Int64]
        do {
            branches = try reader.branches()
        } catch {
            throw CommandError("\(error)")
        }
        guard !branches.contains(branch) else { return }
        let others = branches.filter { $0 != 0 }
        throw CommandError("session \(reader.id) has no branch \(branch): "
            + (others.isEmpty ? "it has only the main line, branch 0 (a skip records a new branch)"
                : "its branches are 0 (the main line), " + others.map(String.init).joined(separator: ", ")))
    }
}
