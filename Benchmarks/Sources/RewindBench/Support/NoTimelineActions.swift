import RewindTUI
import RewindWire

/// Timeline actions for benchmarks that only render: every command is refused.
///
/// Threading: stateless; any thread.
final class NoTimelineActions: TimelineActions {
    func jump(session: String, index: Int) throws -> String { throw BenchFailure("not in a benchmark") }
    func skip(session: String, index: Int) throws -> String { throw BenchFailure("not in a benchmark") }
    func replay(session: String, from index: Int) throws -> String { throw BenchFailure("not in a benchmark") }
    func dispatch(session: String, action: JSONValue) throws -> String { throw BenchFailure("not in a benchmark") }
    func export(session: String) throws -> String { throw BenchFailure("not in a benchmark") }
    func quit() {}
}
