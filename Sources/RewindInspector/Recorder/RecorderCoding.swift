import RewindWire
import Rewind

/// How a ``Recorder`` turns the host's states and actions into JSON, and JSON pushed by the daemon back into them.
///
/// `Encodable` values are encoded with ``JSONValueEncoder`` (their own `encode(to:)`); other values with
/// ``ReflectedValueEncoder`` (a `Mirror` walk), so any state or action can be watched. Action labels come from
/// `ActionLabel`, which reads the enum case path of `Encodable` and non-`Encodable` actions alike.
///
/// Threading: immutable; the closures are pure functions of their argument (they capture only an immutable
/// encoder), called on the pipeline thread (encoding) and on the host's executor (encoding a command's answer), which
/// is why the type is `@unchecked Sendable`.
struct RecorderCoding<State, Action>: @unchecked Sendable {
    /// The state as JSON (before redaction).
    let encodeState: (State) throws -> JSONValue
    /// The action's payload as JSON (before redaction).
    let encodeAction: (Action) throws -> JSONValue
    /// The action's timeline label (`todo/add`).
    let label: (Action) -> String

    /// The coding chosen from the types: `Encodable` ones through their own encoding, the others by reflection.
    static var automatic: RecorderCoding {
        RecorderCoding(encodeState: encoder(for: State.self), encodeAction: encoder(for: Action.self),
                       label: { ActionLabel.of($0) })
    }

    /// A value's encoder: its own `encode(to:)` when it is `Encodable`, with keys `_name` (`@Observable`-style
    /// storage) written `name` (``UnderscoredKeys/normalized(_:)``), so that they read as with reflection;
    /// reflection otherwise. The choice is made once, from the type.
    static func encoder<T>(for type: T.Type) -> (T) throws -> JSONValue {
        guard type is any Encodable.Type else {
            return { value in ReflectedValueEncoder().encode(value) }
        }
        let encoder = JSONValueEncoder()
        return { value in
            // The cast cannot fail: the type is `Encodable`.
            guard let encodable = value as? any Encodable else { return ReflectedValueEncoder().encode(value) }
            return UnderscoredKeys.normalized(try encoder.encode(encodable))
        }
    }

    /// A state decoder that also reads states whose `Codable` keys are `_name` (`@Observable` storage) from JSON
    /// recorded with the keys `name`.
    static func stateDecoder() -> (JSONValue) throws -> State where State: Decodable {
        { json in try UnderscoredKeys.decode(State.self, from: json) }
    }

    /// An action decoder, with the same `_name` tolerance as ``stateDecoder()``.
    static func actionDecoder() -> (JSONValue) throws -> Action where Action: Decodable {
        { json in try UnderscoredKeys.decode(Action.self, from: json) }
    }
}

extension RecorderCoding where State: Encodable, Action: Encodable {
    /// The coding of a `Codable` store (``Inspector/middleware(name:redacting:configuration:)``): the types' own
    /// encodings, specialized.
    static var codable: RecorderCoding {
        let encoder = JSONValueEncoder()
        return RecorderCoding(encodeState: { try encoder.encode($0) }, encodeAction: { try encoder.encode($0) },
                              label: { ActionLabel.of($0) })
    }
}
