import RewindWire

/// The keys `_name` of types whose `Codable` conformance is synthesized from `@Observable`-style storage, read as
/// `name` both ways: recorded as `name`, decoded back from `name`.
///
/// Swift's `@Observable` and TCA's `@ObservableState` keep each property in a `_name` stored property, so a type
/// whose `Codable` conformance is synthesized from that storage uses the keys `_name`, while the timeline (and the
/// reflection encoding, ``ReflectedValueEncoder``) shows `name`.
///
/// - Encoding (``normalized(_:)``): every object key `_name` is written `name`, unless the object also has a key
///   `name` (both are then kept as they are). Keys starting with `_$` (observation bookkeeping) are kept, and so
///   are `_0`, `_1`… (synthesized `Codable`'s keys for unlabelled associated values: `{"add": {"_0": 1}}`).
/// - Decoding (``decode(_:from:)``): a value that does not decode as it is is decoded again with every key `name`
///   of every object also offered as `_name` (unknown keys are ignored by synthesized conformances, so the aliases
///   harm nothing); when that fails too, the first error is reported.
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

    /// `json` with each object key `_name` written `name` (see the type's documentation); `json` itself, without
    /// copying anything, when no key needs it.
    static func normalized(_ json: JSONValue) -> JSONValue {
        renamed(json) ?? json
    }

    /// The renamed value, or nil when nothing in `json` needs renaming (so that unchanged subtrees are not
    /// copied: the common case costs one read-only walk).
    private static func renamed(_ json: JSONValue) -> JSONValue? {
        switch json {
        case .object(let object):
            var keys: [String]?
            var values: [JSONValue]?
            for position in object.indices {
                let (key, value) = object[position]
                if let changed = renamed(value) {
                    if values == nil { values = object.values }
                    values?[position] = changed
                }
                if let bare = bareName(key), object[bare] == nil {
                    if keys == nil { keys = object.keys }
                    keys?[position] = bare
                }
            }
            guard keys != nil || values != nil else { return nil }
            return .object(JSONObject(keys: keys ?? object.keys, values: values ?? object.values))
        case .array(let items):
            var changedItems: [JSONValue]?
            for position in items.indices {
                guard let changed = renamed(items[position]) else { continue }
                if changedItems == nil { changedItems = items }
                changedItems?[position] = changed
            }
            return changedItems.map { .array($0) }
        default:
            return nil
        }
    }

    /// `name` for a key `_name`; nil for other keys, `_` alone, `_$…` bookkeeping and `_0`, `_1`… (the keys of
    /// unlabelled associated values in synthesized enum coding, which no stored property can be named).
    private static func bareName(_ key: String) -> String? {
        guard key.utf8.first == UInt8(ascii: "_"), let second = key.utf8.dropFirst().first else { return nil }
        guard second != UInt8(ascii: "$"), !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(second) else {
            return nil
        }
        return String(key.dropFirst())
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
