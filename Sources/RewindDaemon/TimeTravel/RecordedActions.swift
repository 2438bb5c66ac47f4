import RewindSessionFile
import RewindWire

/// The actions of a stretch of a recorded session's main line, with the state before them: what a client needs
/// to replay them at its own pace (``Daemon/recordedActions(session:from:to:completion:)``).
///
/// Threading: a plain value; `Sendable`.
package struct RecordedActions: Sendable, Hashable {
    /// One recorded action.
    package struct Action: Sendable, Hashable {
        /// The event's index in the session.
        package var index: Int64
        /// When the app dispatched it, unix seconds.
        package var time: Double
        /// Its timeline label.
        package var label: String?
        /// Its `Codable` encoding.
        package var action: JSONValue

        /// An action with every field given.
        package init(index: Int64, time: Double, label: String?, action: JSONValue) {
            self.index = index
            self.time = time
            self.label = label
            self.action = action
        }

        /// The wire form: `{"seq", "time", "label"?, "action"}`.
        package var json: JSONValue {
            var o = JSONObject()
            o["seq"] = .int(index)
            o["time"] = .double(time)
            if let label { o["label"] = .string(label) }
            o["action"] = action
            return .object(o)
        }

        /// Reads the wire form; nil when a member is missing or has the wrong type.
        package init?(json: JSONValue) {
            guard case .object(let o) = json, let index = o["seq"]?.int64Value, let time = o["time"]?.doubleValue,
                  let action = o["action"] else {
                return nil
            }
            self.init(index: index, time: time, label: o["label"]?.stringValue, action: action)
        }
    }

    /// The most bytes of encoded actions one page holds (beyond it the page ends after the action that crossed it):
    /// a reply stays far below the message limit, and the daemon holds one page at a time, however long the session.
    package static let pageBytes = 1 << 20
    /// The most actions one page holds.
    package static let pageActions = 10_000

    /// The recorded state before the first action (the state a replay starts from); nil on a later page (asked
    /// for without it).
    package var state: JSONValue?
    /// The actions, in order.
    package var actions: [Action]
    /// The type of the states the session recorded, when its app said it (`hello.stateType`): a client replaying
    /// them into another app compares it with that app's before sending anything.
    package var stateType: String?
    /// The event index the next page starts at, when the range asked for goes on past this page.
    package var next: Int64?

    /// Actions with the state before them.
    package init(state: JSONValue?, actions: [Action], stateType: String? = nil, next: Int64? = nil) {
        self.state = state
        self.actions = actions
        self.stateType = stateType
        self.next = next
    }

    /// The wire form (the `recordedActions` control command's result):
    /// `{"state"?, "actions": [...], "stateType"?, "next"?}`.
    package var json: JSONValue {
        var o = JSONObject()
        if let state { o["state"] = state }
        o["actions"] = .array(actions.map(\.json))
        if let stateType { o["stateType"] = .string(stateType) }
        if let next { o["next"] = .int(next) }
        return .object(o)
    }

    /// Reads the wire form; nil when it is not one.
    package init?(json: JSONValue) {
        guard case .object(let o) = json, case .array(let items)? = o["actions"] else { return nil }
        let state = o["state"]
        var actions: [Action] = []
        for item in items {
            guard let action = Action(json: item) else { return nil }
            actions.append(action)
        }
        self.init(state: state, actions: actions, stateType: o["stateType"]?.stringValue, next: o["next"]?.int64Value)
    }
}
