import RewindSessionFile

/// The values of the pinned watches for the rows of one session: those read so far (a cache, kept to
/// `cacheLimit` rows around the ones on screen), and the rows asked of the pinned-values thread.
/// Threading: a plain value, owned by the UI thread's model; the values are read on the pinned-values thread.
package struct PinnedValuesState: Sendable, Hashable {
    /// What the pinned-values thread is asked: the values at `pointers` after each event of `indices`.
    package struct Request: Sendable, Hashable {
        /// The session.
        package var session: String
        /// The pinned pointers (JSON Pointer text), in column order.
        package var pointers: [String]
        /// The rows (event indices, 0 the initial state) whose values are wanted.
        package var indices: [Int]
    }

    /// The most rows whose values are kept.
    package static let cacheLimit = 2_000

    /// The session.
    package var session: String
    /// The pinned pointers the values are of, in column order.
    package var pointers: [String]
    /// The values read, by event index: one per pointer.
    package var values: [Int: [RecordedValue]] = [:]
    /// The rows asked and not answered yet.
    package var asked: Set<Int> = []

    /// No values yet for `pointers` in `session`.
    package init(session: String, pointers: [String]) {
        self.session = session
        self.pointers = pointers
    }

    /// The request for the rows `visible` (event indices) when one of them is neither read nor asked (marking them
    /// asked), else nil. It asks every visible row not read yet: a newer request replaces (cancels) an older one.
    package mutating func request(visible: [Int]) -> Request? {
        guard !pointers.isEmpty, visible.contains(where: { values[$0] == nil && !asked.contains($0) }) else {
            return nil
        }
        let missing = visible.filter { values[$0] == nil }
        asked = Set(missing)
        return Request(session: session, pointers: pointers, indices: missing)
    }

    /// Keeps the values `request` was answered with (`values` nil: it failed; its rows then show as unknown rather
    /// than being asked again and again), forgetting the rows farthest from `around` beyond `cacheLimit`.
    package mutating func receive(_ request: Request, values answer: [[RecordedValue]]?, around: Int) {
        guard request.session == session, request.pointers == pointers else { return }
        for (offset, index) in request.indices.enumerated() {
            values[index] = answer.flatMap { offset < $0.count ? $0[offset] : nil }
                ?? pointers.map { _ in .unknown }
            asked.remove(index)
        }
        if values.count > Self.cacheLimit {
            let kept = values.keys.sorted { abs($0 - around) < abs($1 - around) }.prefix(Self.cacheLimit / 2)
            let keptSet = Set(kept)
            values = values.filter { keptSet.contains($0.key) }
        }
    }
}
