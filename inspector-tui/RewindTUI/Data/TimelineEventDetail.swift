import RewindWire

/// Everything the detail pane's Action and Diff tabs show about one event (the State tab asks for the state
/// separately). A plain value type.
package struct TimelineEventDetail: Sendable, Hashable {
    /// The row itself.
    package var event: TimelineEvent
    /// The app's sequence number for it, if it came from the app.
    package var appSeq: Int?
    /// The action as the app encoded it; nil for rows that are not actions.
    package var action: JSONValue?
    /// The change this event made to the state; nil when none.
    package var patch: JSONPatch?

    /// Creates a detail.
    package init(event: TimelineEvent, appSeq: Int? = nil, action: JSONValue? = nil, patch: JSONPatch? = nil) {
        self.event = event
        self.appSeq = appSeq
        self.action = action
        self.patch = patch
    }
}
