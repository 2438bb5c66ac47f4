import RewindWire

/// Decoding JSON recorded with ``JSONValueEncoder/KeyStyle/observationStorage`` back into types whose `Codable`
/// conformance is synthesized from `@Observable`-style storage.
///
/// Swift's `@Observable` and TCA's `@ObservableState` keep each property in a `_name` stored property beside a
/// registrar (`_$observationRegistrar`), so such a type's synthesized keys are `_name` and `_$observationRegistrar`,
/// while the recording (like the reflection encoding, ``ReflectedValueEncoder``) has `name` and no registrar.
///
/// ``decode(_:from:)`` first decodes the value as it is. When that fails, it decodes it again with every key `name`
/// of every object also offered as `_name` (unknown keys are ignored by synthesized conformances, so the aliases harm
/// nothing), and each time the decoder misses a `_$…` member (the registrar), with an empty object put in for it at
/// that place and every place of the same shape (the same path, any array position or dictionary key): a registrar
/// decodes from nothing (TCA's makes a new one). When that fails too, the first error is reported.
///
/// Threading: pure functions; any thread.
enum UnderscoredKeys {
    /// How many distinct bookkeeping members (by place) one decoding may put in before it gives up.
    static let bookkeepingLimit = 4_096

    /// `T` decoded from `json`, reading `name` as `_name` and putting the observation registrar back where `T`'s keys
    /// need it.
    static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        let decoder = JSONValueDecoder()
        do {
            return try decoder.decode(type, from: json)
        } catch {
            var attempt = withUnderscoredAliases(json)
            var restored: Set<[String?]> = []
            while true {
                do {
                    return try decoder.decode(type, from: attempt)
                } catch DecodingError.keyNotFound(let key, let context)
                            where key.stringValue.hasPrefix("_$") && restored.count < bookkeepingLimit {
                    // nil stands for any position: array indices and dictionary keys with an integer value.
                    let pattern = context.codingPath.map { $0.intValue == nil ? $0.stringValue : nil }
                    guard restored.insert(pattern + [key.stringValue]).inserted else { throw error }
                    attempt = inserting(key.stringValue, at: pattern[...], in: attempt)
                } catch _ {
                    throw error
                }
            }
        }
    }

    /// `json` with `key: {}` added to each object found at `pattern` (nil tokens match every element or member)
    /// that lacks it.
    private static func inserting(_ key: String, at pattern: ArraySlice<String?>, in json: JSONValue) -> JSONValue {
        guard let token = pattern.first else {
            guard case .object(var object) = json, object[key] == nil else { return json }
            object[key] = .object(JSONObject())
            return .object(object)
        }
        let rest = pattern.dropFirst()
        switch json {
        case .object(let object):
            var pairs: [(String, JSONValue)] = []
            for (name, value) in object {
                pairs.append((name, token == nil || token == name ? inserting(key, at: rest, in: value) : value))
            }
            return .object(JSONObject(pairs))
        case .array(let items) where token == nil || Int(token!) != nil:
            return .array(items.enumerated().map { position, item in
                token == nil || Int(token!) == position ? inserting(key, at: rest, in: item) : item
            })
        default:
            return json
        }
    }

    /// `json` with each object key `name` (not already starting with `_`) also present as `_name`, at every depth.
    static func withUnderscoredAliases(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let object):
            var pairs: [(String, JSONValue)] = []
            for (key, value) in object {
                let aliased = withUnderscoredAliases(value)
                pairs.append((key, aliased))
                if !key.hasPrefix("_"), object["_" + key] == nil { pairs.append(("_" + key, aliased)) }
            }
            return .object(JSONObject(pairs))
        case .array(let items):
            return .array(items.map(withUnderscoredAliases))
        default:
            return json
        }
    }
}
