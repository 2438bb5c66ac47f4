// The app the ReSwift snippet of docs/INTEGRATIONS.md names but does not show: its state, an action type, its
// reducer and `RecordedAction` (as in samples/reswift-style/RewindRecording.swift). Only here so that the snippet
// compiles against the ReSwift stand-in; this target is never run.
import ReSwift
import protocol Rewind.ActionLabelProviding

/// The app's state.
struct AppState: Codable, Sendable, Equatable {
    var count = 0
}

/// One of the app's action types.
struct Increment: Action, Codable {}

/// The app's reducer.
func appReducer(_ action: Action, _ state: AppState?) -> AppState {
    var state = state ?? AppState()
    if action is Increment { state.count += 1 }
    return state
}

/// One of the app's action types, as the recorder sees it: `{"TypeName": {...fields}}`, labelled with the type's
/// name, decoded back through `types`.
struct RecordedAction: Codable, @unchecked Sendable, ActionLabelProviding {  // holds an immutable action value
    /// The app's action types that can be dispatched and replayed from the timeline.
    static var types: [any (Action & Codable).Type] { [Increment.self] }

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
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown action"))
        }
        action = try type.init(from: container.superDecoder(forKey: key))
    }
}
