import RewindWire

/// Decoding of JSON recorded with the keys `name` into types whose `Codable` keys are `_name`.
///
/// Swift's `@Observable` and TCA's `@ObservableState` keep each property in a `_name` stored property, so a type
/// whose `Codable` conformance is synthesized from that storage uses the keys `_name`, while the timeline (and the
/// reflection encoding, ``ReflectedValueEncoder``) shows `name`. A value that does not decode as it is is decoded
/// again with every key `name` of every object also offered as `_name` (unknown keys are ignored by synthesized
/// conformances, so the aliases harm nothing); when that fails too, the first error is reported.
///
/// Threading: pure functions; any thread.
enum UnderscoredKeys {
    /// `T` decoded from `json`, reading `name` as `_name` where `T`'s keys need it.
    static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        let decoder = JSONValueDecoder()
        do {
            return try decoder.decode(type, from: json)
        } catch {
            let aliased = withUnderscoredAliases(json)
            guard aliased != json, let value = try? decoder.decode(type, from: aliased) else { throw error }
            return value
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
