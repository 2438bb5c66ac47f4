import Foundation
import RewindWire

/// Encodes any Swift value into a ``JSONValue`` by reflection (`Mirror`), for states and actions that are not
/// `Encodable`: the timeline, diffs and states of such an app read like those of a `Codable` one.
///
/// - `Bool`, integers, floating-point numbers (non-finite ones as their description), `String`, `Character`,
///   `Date`, `URL`, `UUID` and `Data` → scalars as ``JSONValueEncoder`` writes them; a nested `Encodable` value (for
///   example a `JSONValue`) → its own encoding.
/// - Structs, classes and tuples with labels → objects in declaration order. A stored property `_name` (the storage
///   of Swift's `@Observable` and TCA's `@ObservableState`) is written as `name`; bookkeeping properties whose
///   label starts with `_$` or `$` (the observation registrar) are left out.
/// - Arrays and sets → arrays; dictionaries → objects keyed by the keys' descriptions; optionals → the value or
///   `null`.
/// - Enums: a case without payload → its name as a string; with a payload → `{"case": payload}`, like synthesized
///   `Codable`.
/// - Closures, and anything else without children → the value's description (`"(Function)"`).
/// - An object already being encoded higher up (a reference cycle) → `"<cycle: TypeName>"`; deeper than 64 levels →
///   `"<too deep>"`.
///
/// Threading: a value type with no shared state; any thread, on `Sendable` values.
struct ReflectedValueEncoder {
    /// The deepest nesting encoded.
    static let maxDepth = 64

    private let encoder = JSONValueEncoder()

    /// `value` as JSON.
    func encode(_ value: Any) -> JSONValue {
        var visiting: Set<ObjectIdentifier> = []
        return encode(value, depth: 0, visiting: &visiting)
    }

    private func encode(_ value: Any, depth: Int, visiting: inout Set<ObjectIdentifier>) -> JSONValue {
        if let scalar = Self.scalar(value) { return scalar }
        guard depth < Self.maxDepth else { return .string("<too deep>") }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return .null }
            return encode(wrapped.value, depth: depth + 1, visiting: &visiting)
        case .collection, .set:
            return .array(mirror.children.map { encode($0.value, depth: depth + 1, visiting: &visiting) })
        case .dictionary:
            var pairs: [(String, JSONValue)] = []
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                guard pair.count == 2 else { continue }
                pairs.append((Self.keyText(pair[0]), encode(pair[1], depth: depth + 1, visiting: &visiting)))
            }
            return .object(JSONObject(pairs))
        case .enum:
            guard let payload = mirror.children.first, let name = payload.label else {
                return .string(String(describing: value))
            }
            return .object(JSONObject([(name, encode(payload.value, depth: depth + 1, visiting: &visiting))]))
        case .class:
            let id = ObjectIdentifier(value as AnyObject)
            guard visiting.insert(id).inserted else { return .string("<cycle: \(mirror.subjectType)>") }
            defer { visiting.remove(id) }
            return members(of: mirror, depth: depth, visiting: &visiting)
        case .struct, .tuple:
            if mirror.children.isEmpty, let encodable = value as? any Encodable,
               let encoded = try? encoder.encode(encodable) {
                return encoded
            }
            return members(of: mirror, depth: depth, visiting: &visiting)
        default:
            if let encodable = value as? any Encodable, let encoded = try? encoder.encode(encodable) {
                return encoded
            }
            return .string(String(describing: value))
        }
    }

    /// The labelled children of a struct, class (with its superclasses' members first) or tuple; an unlabelled
    /// tuple becomes an array.
    private func members(of mirror: Mirror, depth: Int, visiting: inout Set<ObjectIdentifier>) -> JSONValue {
        var chain: [Mirror] = [mirror]
        while let parent = chain.last?.superclassMirror { chain.append(parent) }
        var pairs: [(String, JSONValue)] = []
        var unlabelled: [JSONValue] = []
        for level in chain.reversed() {
            for child in level.children {
                let encoded = encode(child.value, depth: depth + 1, visiting: &visiting)
                guard let label = child.label, !label.hasPrefix(".") else {
                    unlabelled.append(encoded)
                    continue
                }
                guard let key = Self.key(forLabel: label) else { continue }
                pairs.append((key, encoded))
            }
        }
        if pairs.isEmpty && !unlabelled.isEmpty { return .array(unlabelled) }
        return .object(JSONObject(pairs))
    }

    /// The JSON key of a stored property: `_name` → `name`; nil for `_$`/`$` bookkeeping.
    static func key(forLabel label: String) -> String? {
        if label.hasPrefix("$") || label.hasPrefix("_$") { return nil }
        if label.hasPrefix("_"), label.count > 1 { return String(label.dropFirst()) }
        return label
    }

    private static func keyText(_ key: Any) -> String {
        if let string = key as? String { return string }
        return String(describing: key)
    }

    /// Scalars and the Foundation values JSON has a form for.
    private static func scalar(_ value: Any) -> JSONValue? {
        switch value {
        case let v as Bool: return .bool(v)
        case let v as String: return .string(v)
        case let v as Character: return .string(String(v))
        case let v as Int: return .int(Int64(v))
        case let v as Int8: return .int(Int64(v))
        case let v as Int16: return .int(Int64(v))
        case let v as Int32: return .int(Int64(v))
        case let v as Int64: return .int(v)
        case let v as UInt8: return .int(Int64(v))
        case let v as UInt16: return .int(Int64(v))
        case let v as UInt32: return .int(Int64(v))
        case let v as UInt: return Int64(exactly: v).map { .int($0) } ?? .string(String(v))
        case let v as UInt64: return Int64(exactly: v).map { .int($0) } ?? .string(String(v))
        case let v as Double: return v.isFinite ? .double(v) : .string(String(v))
        case let v as Float: return v.isFinite ? .double(Double("\(v)") ?? Double(v)) : .string(String(v))
        case let v as Date: return .double(v.timeIntervalSince1970)
        case let v as URL: return .string(v.absoluteString)
        case let v as UUID: return .string(v.uuidString)
        case let v as Data: return .string(v.base64EncodedString())
        case let v as JSONValue: return v
        default: return nil
        }
    }
}
