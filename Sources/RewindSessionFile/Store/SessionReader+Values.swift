import RewindWire

/// The values at a few JSON Pointers across many events: what the timeline's pinned watches show beside its rows, and
/// what its value plot (`b` on a number) draws.
extension SessionReader {
    /// The values at `pointers` in the state after each event of `indices` (0: the initial state), each on its own
    /// branch, in the order of `indices`: one array per index, one ``RecordedValue`` per pointer (`unknown` for an
    /// event whose state the recording does not hold, or that is not committed yet). States are read in ascending
    /// order, so that neighbouring indices share their keyframe's rebuild (consecutive rows cost a patch each).
    /// `isCancelled` is asked between events: the read stops and returns nil once it says true.
    /// Threading: any thread (the reader's lock serializes each state read); meant for a thread of its own, since
    /// far-apart indices cost a keyframe and its patches each.
    package func values(
        at pointers: [JSONPointer], after indices: [Int], isCancelled: () -> Bool = { false }
    ) throws(SessionStoreError) -> [[RecordedValue]]? {
        var result = Array(repeating: [RecordedValue](), count: indices.count)
        for position in indices.indices.sorted(by: { indices[$0] < indices[$1] }) {
            if isCancelled() { return nil }
            let index = indices[position]
            let state: RecordedState
            do {
                state = try recordedState(after: Int64(max(0, index)))
            } catch .eventNotFound {
                result[position] = pointers.map { _ in .unknown }
                continue
            }
            result[position] = pointers.map { pointer -> RecordedValue in
                guard case .known(let whole) = state else { return .unknown }
                return whole[pointer].map { .value($0) } ?? .absent
            }
        }
        return result
    }
}
