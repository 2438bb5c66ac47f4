import RewindWire

/// Everything the detail pane's Action and Diff tabs show about one event (the State tab asks for the state
/// separately). A plain value type.
public struct TimelineEventDetail: Sendable, Hashable {
    /// The row itself.
    public var event: TimelineEvent
    /// The app's sequence number for it, if it came from the app.
    public var appSeq: Int?
    /// The action as the app encoded it; nil for rows that are not actions.
    public var action: JSONValue?
    /// The change this event made to the state; nil when none.
    public var patch: JSONPatch?

    /// Creates a detail.
    public init(event: TimelineEvent, appSeq: Int? = nil, action: JSONValue? = nil, patch: JSONPatch? = nil) {
        self.event = event
        self.appSeq = appSeq
        self.action = action
        self.patch = patch
    }
}
