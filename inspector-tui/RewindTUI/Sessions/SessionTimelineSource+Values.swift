import RewindSessionFile
import RewindWire

extension SessionTimelineSource {
    /// From the session file, through the session's values reader (a connection of its own, so that the UI's reads
    /// never wait behind these): `SessionReader.values(at:after:isCancelled:)`.
    package func values(
        session: String, pointers: [JSONPointer], after indices: [Int], progress: TimelineSearchProgress
    ) throws -> [[RecordedValue]] {
        let reader = try valuesReader(session)
        guard let values = try reader.values(at: pointers, after: indices, isCancelled: { progress.isCancelled }) else {
            throw TimelineSearchProgress.Cancelled()
        }
        return values
    }
}
