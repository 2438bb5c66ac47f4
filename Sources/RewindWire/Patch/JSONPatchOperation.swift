/// One RFC 6902 operation.
///
/// Threading: a value type; safe to share.
public enum JSONPatchOperation: Hashable, Sendable {
    /// Adds `value` at `path`: sets an object member (replacing an existing one), or inserts into an array
    /// before the index (`-` appends). Adding at the root replaces the document.
    case add(path: JSONPointer, value: JSONValue)
    /// Removes the member or element at `path`, which must exist.
    case remove(path: JSONPointer)
    /// Replaces the value at `path`, which must exist.
    case replace(path: JSONPointer, value: JSONValue)
    /// Removes the value at `from` and adds it at `path`. `from` must not be a proper prefix of `path`.
    case move(from: JSONPointer, path: JSONPointer)
    /// Adds a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails the patch unless the value at `path` equals `value` (numbers compare numerically).
    case test(path: JSONPointer, value: JSONValue)

    /// The operation's name as written in JSON (`add`, `remove`, …).
    public var name: String {
        switch self {
        case .add: return "add"
        case .remove: return "remove"
        case .replace: return "replace"
        case .move: return "move"
        case .copy: return "copy"
        case .test: return "test"
        }
    }

    /// The target location of the operation.
    public var path: JSONPointer {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path),
             .copy(_, let path), .test(let path, _):
            return path
        }
    }

    /// The JSON object form: `{"op": …, "path": …, "from"?: …, "value"?: …}`.
    public var json: JSONValue {
        var o = JSONObject()
        o["op"] = .string(name)
        switch self {
        case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
            o["path"] = .string(path.description)
            o["value"] = value
        case .remove(let path):
            o["path"] = .string(path.description)
        case .move(let from, let path), .copy(let from, let path):
            o["from"] = .string(from.description)
            o["path"] = .string(path.description)
        }
        return .object(o)
    }
}
