import RewindSessionFile
import RewindWire

extension TimelineDataSource {
    /// Reads each event's state through `state(session:index:)` and its row's `stateUnknown` (for in-memory
    /// sources; session files read through a reader of their own, `SessionTimelineSource+Values.swift`). Checks
    /// `progress` between events.
    package func values(
        session: String, pointers: [JSONPointer], after indices: [Int], progress: TimelineSearchProgress
    ) throws -> [[RecordedValue]] {
        var result: [[RecordedValue]] = []
        for (done, index) in indices.enumerated() {
            try progress.check()
            progress.report(searched: done, of: indices.count)
            if index > 0, let row = try events(session: session, range: index...index).first, row.stateUnknown {
                result.append(pointers.map { _ in RecordedValue.unknown })
                continue
            }
            guard let whole = try? state(session: session, index: index) else {
                result.append(pointers.map { _ in RecordedValue.unknown })
                continue
            }
            result.append(pointers.map { pointer -> RecordedValue in whole[pointer].map { .value($0) } ?? .absent })
        }
        return result
    }
}
