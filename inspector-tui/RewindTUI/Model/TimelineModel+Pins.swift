/// The pinned watches (`w`) of the selected session's app, and the rows whose values they show.
extension TimelineModel {
    /// The pointers pinned for the selected session's app (by its name), in column order; empty without a session.
    package var pinnedPointers: [String] {
        guard let app = selectedSession?.appName else { return [] }
        return pinBoard.pointers(for: app)
    }

    /// The event indices of the rows on screen (0: the initial state), top to bottom.
    package var visibleIndices: [Int] {
        guard selectedSession != nil else { return [] }
        var indices: [Int] = []
        for position in scrollTop..<(scrollTop + layout.timelineRows) {
            guard let index = index(atPosition: position), index <= eventCount else { break }
            indices.append(index)
        }
        return indices
    }
}
