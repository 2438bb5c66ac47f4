// The adapter a ReSwift app copies (docs/INTEGRATIONS.md, "ReSwift"): a middleware that records every action with
// the state after it, a state-replacing reducer for jump, and a `Codable` wrapper for the app's action types so
// that the timeline can dispatch and replay them.
import Foundation
import Rewind
import RewindInspector

/// Replaces the whole state: how the recorder's jump reaches a ReSwift store.
struct ReplaceState<State: Sendable>: Action {
    let state: State
}

/// Wraps an app reducer so that `ReplaceState` puts its state in place.
func replacingState<State: Sendable>(_ reducer: @escaping Reducer<State>) -> Reducer<State> {
    { action, state in
        if let replace = action as? ReplaceState<State> { return replace.state }
        return reducer(action, state)
    }
}

/// Records every action the app dispatches (not the recorder's own `ReplaceState`) with the state after it. Put it
/// last in the store's middleware, next to the reducer: it then records exactly the actions the reducer gets, in
/// the order it gets them (placed before the app's own middleware, it would record actions they drop or delay,
/// and `rewind verify` would fail on a correct app).
func recordingMiddleware<State: Sendable>(_ recorder: Recorder<State, RecordedAction>) -> Middleware<State> {
    { _, getState in
        { next in
            { action in
                next(action)
                guard !(action is ReplaceState<State>), let state = getState() else { return }
                recorder.record(RecordedAction(action), state: state)
            }
        }
    }
}

/// One of the app's action types, as the recorder sees it: encoded as `{"TypeName": {...fields}}`, labelled with
/// the type's name, decoded back through ``types``.
///
/// `@unchecked Sendable`: ReSwift's `Action` is not `Sendable`, but an action is an immutable value once
/// dispatched (ReSwift's action structs), and the recorder only encodes it on its own thread.
/// `ActionLabelProviding` comes from the `Rewind` product: add it beside `RewindInspector`.
struct RecordedAction: Codable, @unchecked Sendable, ActionLabelProviding {
    /// The app's action types that can be dispatched and replayed from the timeline.
    nonisolated(unsafe) static var types: [any (Action & Codable).Type] = []

    let action: any Action

    init(_ action: any Action) { self.action = action }

    var actionLabel: String { String(describing: type(of: action)) }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        guard let encodable = action as? any Encodable else {
            try container.encode(String(describing: action), forKey: Key(stringValue: actionLabel))
            return
        }
        try encodable.encode(to: container.superEncoder(forKey: Key(stringValue: actionLabel)))
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard let key = container.allKeys.first,
              let type = Self.types.first(where: { String(describing: $0) == key.stringValue }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "expected one of " + Self.types.map { String(describing: $0) }.joined(separator: ", ")))
        }
        action = try type.init(from: container.superDecoder(forKey: key))
    }
}

/// The app's own middleware (validation, as apps put before their reducer): an `AddItem` of no quantity goes no
/// further. It comes before the recorder, which then never sees such an action.
func droppingEmptyAdds<State>() -> Middleware<State> {
    { _, _ in
        { next in
            { action in
                if let add = action as? AddItem, add.quantity <= 0 { return }
                next(action)
            }
        }
    }
}
