/// An RFC 6902 JSON Patch: a list of operations applied in order, all or nothing.
///
/// Threading: a value type; safe to share.
public struct JSONPatch: Hashable, Sendable {
    /// The operations, applied in order.
    public var operations: [JSONPatchOperation] {
        didSet { source = nil }
    }

    /// The JSON this patch was read from (``init(json:)``), kept so that ``json`` need not rebuild it: a
    /// daemon that stores every patch it receives as text then serializes the parsed array as it came. Cleared
    /// whenever ``operations`` changes; never part of equality.
    private var source: JSONValue?

    /// The JSON this patch was read from, if it was read and not changed since (what ``json`` returns then).
    var sourceJSON: JSONValue? { source }

    /// A patch with these operations.
    public init(_ operations: [JSONPatchOperation] = []) {
        self.operations = operations
        source = nil
    }

    /// Patches are equal when their operations are (however each was made).
    public static func == (lhs: JSONPatch, rhs: JSONPatch) -> Bool {
        lhs.operations == rhs.operations
    }

    /// Hashes the operations, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(operations)
    }

    /// True when the patch has no operations (it changes nothing).
    public var isEmpty: Bool { operations.isEmpty }

    /// Reads the JSON form: an array of operation objects. Throws, naming the operation index, when the value
    /// is not an array, an element is not an object, `op` is missing or unknown, `path`/`from` is missing,
    /// not a string or not a valid pointer, or `value` is missing where the operation needs it. Unknown
    /// members are ignored, as RFC 6902 §4 asks.
    public init(json: JSONValue) throws(JSONPatchError) {
        guard case .array(let elements) = json else {
            throw JSONPatchError(operationIndex: 0, pointer: "", reason: "a JSON Patch must be an array of operations, not \(json.kindNameWithArticle)")
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            operations.append(try JSONPatch.operation(from: element, index: index))
        }
        self.operations = operations
        source = json
    }

    private static func operation(from element: JSONValue, index: Int) throws(JSONPatchError) -> JSONPatchOperation {
        func fail(_ reason: String, _ pointer: String = "") -> JSONPatchError {
            JSONPatchError(operationIndex: index, pointer: pointer, reason: reason)
        }
        guard case .object(let object) = element else {
            throw fail("an operation must be an object, not \(element.kindNameWithArticle)")
        }
        guard let opValue = object["op"] else { throw fail("missing 'op' member") }
        guard case .string(let op) = opValue else { throw fail("'op' must be a string, not \(opValue.kindNameWithArticle)") }

        func pointer(_ member: String) throws(JSONPatchError) -> JSONPointer {
            guard let raw = object[member] else { throw fail("missing '\(member)' member") }
            guard case .string(let text) = raw else { throw fail("'\(member)' must be a string, not \(raw.kindNameWithArticle)") }
            do {
                return try JSONPointer(text)
            } catch {
                throw fail("'\(member)' is not a valid JSON Pointer: \(error.reason)", text)
            }
        }
        func value() throws(JSONPatchError) -> JSONValue {
            guard let v = object["value"] else { throw fail("missing 'value' member") }
            return v
        }

        switch op {
        case "add": return .add(path: try pointer("path"), value: try value())
        case "remove": return .remove(path: try pointer("path"))
        case "replace": return .replace(path: try pointer("path"), value: try value())
        case "move": return .move(from: try pointer("from"), path: try pointer("path"))
        case "copy": return .copy(from: try pointer("from"), path: try pointer("path"))
        case "test": return .test(path: try pointer("path"), value: try value())
        default: throw fail("unknown operation \"\(op)\"")
        }
    }

    /// The JSON form: an array of operation objects (`op`, `path`, then `from`/`value` as the operation has).
    /// For a patch read by ``init(json:)`` and not changed since, the JSON it was read from (members RFC 6902
    /// tells readers to ignore included).
    public var json: JSONValue {
        source ?? .array(operations.map(\.json))
    }

    /// Applies the operations in order to a copy of `document` and returns the result. If any operation
    /// fails, throws (naming the operation and location) and nothing is changed — `document` is a value.
    /// Cost: each operation copies only the containers on its path, so a small patch to a large document is
    /// cheap.
    public func apply(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = document
        try JSONPatchApplier.apply(operations, to: &result, atomically: false)
        return result
    }

    /// Applies the operations in order to `document` in place: no copying when its storage is uniquely
    /// referenced, so this is the cheap way to move a large state forward. All or nothing, like
    /// ``apply(to:)-(JSONValue)``: if an operation fails, the ones before it are undone (the document is
    /// restored exactly, key order included) and the error is thrown.
    public func apply(to document: inout JSONValue) throws(JSONPatchError) {
        try JSONPatchApplier.apply(operations, to: &document, atomically: true)
    }

    /// Applies the operations in place, all or nothing, like ``apply(to:)-(JSONValue)``, while bounding what the
    /// patch can make the document become: `size` is the document's ``JSONValue/compactSize(limit:)`` before
    /// the patch (measure it once, then let this method keep it up to date), and an operation that would take
    /// it past `maxSize` bytes fails with a `JSONPatchError` saying so, the document and `size` restored. This is
    /// what a receiver of patches from an untrusted peer calls: a small patch that copies the document into
    /// itself again and again is refused after the budget, not after memory or disk runs out.
    ///
    /// Cost: as ``apply(to:)-(JSONValue)``, plus measuring each value that enters or leaves the document (a
    /// `copy`'s source only up to the budget left).
    public func apply(to document: inout JSONValue, size: inout Int, maxSize: Int) throws(JSONPatchError) {
        try JSONPatchApplier.apply(operations, to: &document, size: &size, maxSize: maxSize)
    }

    /// A patch that turns `from` into `to`: `try diff(from: a, to: b).apply(to: a) == b` always holds.
    ///
    /// Strategy and cost (N = size of the two documents):
    /// - Equal subtrees produce nothing. Containers that share storage (unchanged since a copy) are skipped
    ///   without looking inside; otherwise each node is visited once: O(N).
    /// - Scalars that differ, and values whose kind changes (including `int` ↔ `double`), become one `replace`.
    /// - Objects: members are matched by key. A key only in `from` → `remove`, only in `to` → `add`, in both →
    ///   recurse. Key order is not diffed (object equality ignores order).
    /// - Arrays: the common prefix and suffix are trimmed (element `==`), which makes the common cases minimal:
    ///   one element appended → one `add` at its index; one element inserted or removed anywhere → one `add`
    ///   or one `remove`; one element changed → a nested diff of that element. The trim looks at the elements'
    ///   bytes first (subtrees that share storage are equal): when that alone leaves one element on each side,
    ///   that element is diffed without being compared whole first, so a change deep inside shared structure
    ///   costs the length of its path, not the size of the subtrees around it. What remains in the middle
    ///   is aligned with Myers' shortest-edit-script search on element hashes, bounded to at most 64 edits and
    ///   about 200,000 element comparisons (O((n+m)·D)); in the alignment, runs of deletions facing runs of
    ///   insertions are paired up and diffed recursively, so changed elements become nested changes. When the
    ///   search exceeds its bound, the middle is compared position by position (nested diffs) and the extra
    ///   tail is removed or added — always correct, possibly not minimal. `move`/`copy` are never produced.
    public static func diff(from: JSONValue, to: JSONValue) -> JSONPatch {
        var differ = JSONPatchDiffer()
        differ.diff(from, to)
        return JSONPatch(differ.operations)
    }
}

extension JSONPatch: CustomStringConvertible {
    /// The compact JSON text of the patch.
    public var description: String { json.serialized() }
}
