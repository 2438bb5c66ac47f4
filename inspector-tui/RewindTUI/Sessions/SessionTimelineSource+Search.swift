import Foundation
import RewindSessionFile
import RewindWire

extension SessionTimelineSource {
    /// Events per query when the file is scanned (no label index, an action text, states): the grain of progress
    /// reports and of cancellation.
    static let searchChunk = 50_000
    /// Events per pass of a state search (each state is computed, so the grain is finer).
    static let stateSearchChunk = 5_000

    /// The stats view's tables from SQL scans of the file (`SessionReader.labelTallies`), the range shared among
    /// `backgroundParallelism` threads (`concurrently`), each with a reader (a connection) of its own, so that the UI's reads go on
    /// meanwhile and a long session takes the machine's cores. Called on the stats thread; the scans are not
    /// cancelled half-way (about 0.3 s for 1,000,000 events on one core).
    package func sessionStatistics(session: String, count: Int, progress: TimelineSearchProgress) throws
        -> SessionStatistics {
        guard count > 0 else { return LabelStatistics.Builder().summary() }
        progress.report(searched: 0, of: count)
        let shares = count < Self.searchChunk ? 1 : backgroundParallelism
        let size = (Int64(count) + Int64(shares) - 1) / Int64(shares)
        let ranges = stride(from: Int64(1), through: Int64(count), by: Int(size)).map {
            $0...min(Int64(count), $0 + size - 1)
        }
        var merged = LabelStatistics.Builder()
        for tallies in try concurrently(ranges.count, { try separateReader(session).labelTallies(in: ranges[$0]) }) {
            merged.merge(tallies)
        }
        progress.report(searched: count, of: count)
        try progress.check()
        return merged.summary()
    }


    /// Searches the session file through its own connection (`SessionSearch`), in SQL: labels through the label
    /// index when the file has one (a few index seeks for the whole range), else by scanning `searchChunk` events
    /// per query; action text by SQL scans of `searchChunk` events; states by applying patches forward
    /// (`stateSearchChunk` events per pass, main line only). Called on the search thread.
    package func firstEvent(
        session: String, matching query: TimelineSearchQuery, in range: ClosedRange<Int>, forward: Bool,
        progress: TimelineSearchProgress
    ) throws -> Int? {
        let search = try search(session)
        let total = range.count
        switch query {
        case .label(let filter):
            let labels = Set(try search.displayLabels(in: Int64(range.lowerBound)...Int64(range.upperBound))
                .filter(filter.matches))
            guard !labels.isEmpty else { return nil }
            let chunk = search.hasLabelIndex ? total : Self.searchChunk
            return try chunked(range, chunk: chunk, forward: forward, progress: progress) { part in
                try search.firstEvent(labelIn: labels, in: part, forward: forward)
            }
        case .action(let text):
            let ignoreCase = !text.contains(where: \.isUppercase)
            return try chunked(range, chunk: Self.searchChunk, forward: forward, progress: progress) { part in
                try search.firstEvent(actionContaining: text, ignoringCase: ignoreCase, in: part, forward: forward)
            }
        case .state(let condition):
            return try chunked(range, chunk: Self.stateSearchChunk, forward: forward, progress: progress) { part in
                // Transitions inside `part`: the state before its first event is the baseline.
                var found: Int64?
                var before: Bool?
                try search.forEachMainLineState(in: (part.lowerBound - 1)...part.upperBound) { index, state in
                    let now = condition.holds(in: state)
                    if let before, now && !before, index >= part.lowerBound {
                        found = index
                        if forward { return false }
                    }
                    before = now
                    return true
                }
                return found
            }
        }
    }

    /// The rows `filter` shows, by SQL over the session file (`SessionSearch.eventIndices`), `searchChunk` events
    /// per query. Called on the row-filter thread.
    package func visibleEvents(
        session: String, filter: TimelineRowFilter, in range: ClosedRange<Int>, progress: TimelineSearchProgress
    ) throws -> [Int] {
        let search = try search(session)
        var labels: Set<String>?
        if let pattern = filter.labels {
            labels = Set(try search.displayLabels(in: Int64(range.lowerBound)...Int64(range.upperBound))
                .filter(pattern.matches))
            if labels?.isEmpty == true { return [] }
        }
        let kinds = Set(filter.hiddenKinds.compactMap { EventKind(rawValue: $0.rawValue) })
        var result: [Int] = []
        _ = try chunked(range, chunk: Self.searchChunk, forward: true, progress: progress) { part in
            result += try search.eventIndices(labelIn: labels, hidingKinds: kinds, in: part).map { Int($0) }
            return nil
        }
        return result
    }

    /// Runs `body` on consecutive parts of `range` of at most `chunk` events, in the search's direction, until one
    /// finds an event; reports progress and checks for cancellation between parts.
    private func chunked(
        _ range: ClosedRange<Int>, chunk: Int, forward: Bool, progress: TimelineSearchProgress,
        _ body: (ClosedRange<Int64>) throws -> Int64?
    ) throws -> Int? {
        var searched = 0
        var position = forward ? range.lowerBound : range.upperBound
        while range.contains(position) {
            try progress.check()
            let part = forward ? position...min(range.upperBound, position + max(1, chunk) - 1)
                               : max(range.lowerBound, position - max(1, chunk) + 1)...position
            if let found = try body(Int64(part.lowerBound)...Int64(part.upperBound)) { return Int(found) }
            searched += part.count
            progress.report(searched: searched, of: range.count)
            position = forward ? part.upperBound + 1 : part.lowerBound - 1
        }
        return nil
    }
}

