import RewindWire

extension TimelineDataSource {
    /// Reads the range in chunks of 1,000 events through `events(session:range:)` (labels), `event(session:index:)` (actions)
    /// or `state(session:index:)` (states), checking for cancellation and reporting progress between chunks.
    /// Right for in-memory sources; slow on long session files (see `SessionTimelineSource`).
    package func firstEvent(
        session: String, matching query: TimelineSearchQuery, in range: ClosedRange<Int>, forward: Bool,
        progress: TimelineSearchProgress
    ) throws -> Int? {
        let chunk = 1_000
        var searched = 0
        var position = forward ? range.lowerBound : range.upperBound
        var ignoreCase = false
        if case .action(let text) = query { ignoreCase = !text.contains(where: \.isUppercase) }
        while range.contains(position) {
            try progress.check()
            let part = forward ? position...min(range.upperBound, position + chunk - 1)
                               : max(range.lowerBound, position - chunk + 1)...position
            if case .label(let filter) = query {
                let rows = try events(session: session, range: part)
                if let found = forward ? rows.first(where: filter.matches) : rows.last(where: filter.matches) {
                    return found.index
                }
            } else {
                let indices = forward ? Array(part) : part.reversed()
                for index in indices where try matches(query, session: session, index: index, ignoreCase: ignoreCase) {
                    return index
                }
            }
            searched += part.count
            progress.report(searched: searched, of: range.count)
            position = forward ? part.upperBound + 1 : part.lowerBound - 1
        }
        return nil
    }

    private func matches(_ query: TimelineSearchQuery, session: String, index: Int, ignoreCase: Bool) throws -> Bool {
        switch query {
        case .label:
            return false  // read by chunks above
        case .action(let text):
            guard let action = try event(session: session, index: index).action?.serialized() else {
                return false
            }
            return ignoreCase ? action.lowercased().contains(text.lowercased()) : action.contains(text)
        case .state(let condition):
            let event = try event(session: session, index: index)
            guard event.branch == 0 else { return false }
            let now = try state(session: session, index: index)
            guard condition.holds(in: now) else { return false }
            guard let before = try stateBefore(session: session, index: index) else { return true }
            return !condition.holds(in: before)
        }
    }

    /// Reads the rows of `range` 1,000 at a time through `events(session:range:)` and keeps those `filter` shows.
    package func visibleEvents(
        session: String, filter: TimelineRowFilter, in range: ClosedRange<Int>, progress: TimelineSearchProgress
    ) throws -> [Int] {
        var result: [Int] = []
        var position = range.lowerBound
        while position <= range.upperBound {
            try progress.check()
            let part = position...min(range.upperBound, position + 999)
            result += try events(session: session, range: part).filter(filter.shows).map(\.index)
            progress.report(searched: part.upperBound - range.lowerBound + 1, of: range.count)
            position = part.upperBound + 1
        }
        return result
    }
}
