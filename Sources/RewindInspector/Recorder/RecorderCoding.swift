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
    /// The encoder `Encodable` values go through (the encoding memo encodes states with it too, so that its trees are
    /// the ones ``encodeState`` makes).
    let jsonEncoder: JSONValueEncoder

    /// The coding chosen from the types: `Encodable` ones through their own encoding, with `@Observable`-style
    /// storage read as the properties it stands for (``JSONValueEncoder/KeyStyle/observationStorage``: keys `_name`
    /// written `name`, the observation registrar left out), so that they read as with reflection; the others by
    /// reflection.
    static var automatic: RecorderCoding {
        let jsonEncoder = JSONValueEncoder(keyStyle: .observationStorage)
        return RecorderCoding(encodeState: encoder(for: State.self, jsonEncoder),
                              encodeAction: encoder(for: Action.self, jsonEncoder),
                              label: { ActionLabel.of($0) }, jsonEncoder: jsonEncoder)
    }

    /// A value's encoder: its own `encode(to:)` through `jsonEncoder` when it is `Encodable`, reflection otherwise.
    /// The choice is made once, from the type.
    static func encoder<T>(for type: T.Type, _ jsonEncoder: JSONValueEncoder) -> (T) throws -> JSONValue {
        guard type is any Encodable.Type else {
            return { value in ReflectedValueEncoder().encode(value) }
        }
        return { value in
            // The cast cannot fail: the type is `Encodable`.
            guard let encodable = value as? any Encodable else { return ReflectedValueEncoder().encode(value) }
            return try jsonEncoder.encode(encodable)
        }
    }

    /// A state decoder that also reads states whose `Codable` keys are `_name` and `_$observationRegistrar`
    /// (`@Observable` storage) from JSON recorded with the keys `name` and no registrar (``UnderscoredKeys``).
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
                              label: { ActionLabel.of($0) }, jsonEncoder: encoder)
    }
}
