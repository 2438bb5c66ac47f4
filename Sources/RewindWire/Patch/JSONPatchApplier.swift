/// Applies RFC 6902 operations to a document in place.
///
/// Navigation mutates containers in place: at each level the container is moved out of its enum case,
/// modified, and put back, so a document whose storage is uniquely referenced is patched without copying,
/// and a shared one copies only the containers on the path (O(sum of their widths), not O(document)).
///
/// In-place application is all or nothing: each operation records how to undo itself (the value it replaced
/// or removed, and where), and a failing operation rolls the earlier ones back, restoring the document
/// exactly (key order included).
///
/// Threading: stateless; pure functions over values.
enum JSONPatchApplier {
    /// How to undo one primitive change.
    enum Undo {
        /// Remove what was added at this pointer (an object member, or an array element at a numeric index).
        case remove(JSONPointer)
        /// Put this value back at this pointer (a replaced member or element).
        case replace(JSONPointer, JSONValue)
        /// Re-insert a removed object member at its old position.
        case insertMember(JSONPointer, JSONValue, position: Int)
        /// Re-insert a removed array element (the pointer ends with its index).
        case insertElement(JSONPointer, JSONValue)
        /// Put the whole document back.
        case root(JSONValue)
    }

    /// A failure at a location, turned into a `JSONPatchError` by the caller that knows the operation index.
    struct Failure: Error {
        var pointer: String
        var reason: String
    }

    /// Applies the operations in order. With `atomically`, a failure restores `document` before throwing;
    /// without, the operations before the failing one stay applied (for callers that discard the document).
    static func apply(_ operations: [JSONPatchOperation], to document: inout JSONValue,
                      atomically: Bool) throws(JSONPatchError) {
        var undo: [Undo]? = atomically ? [] : nil
        for (index, operation) in operations.enumerated() {
            do throws(Failure) {
                try apply(operation, to: &document, undo: &undo)
            } catch {
                if let undo { rollBack(undo, in: &document) }
                throw JSONPatchError(operationIndex: index, pointer: error.pointer, reason: error.reason)
            }
        }
    }

    /// Applies the operations in order, all or nothing, keeping `size` (the document's
    /// ``JSONValue/compactSize(limit:)`` before the patch) up to date as the document grows and shrinks. An
    /// operation that would take it past `maxSize` fails before it is applied (a `copy` is measured only up to the
    /// budget left, so a copy bomb costs no more than the budget); on any failure the document and `size` are
    /// restored.
    static func apply(_ operations: [JSONPatchOperation], to document: inout JSONValue, size: inout Int,
                      maxSize: Int) throws(JSONPatchError) {
        var undo: [Undo]? = []
        let sizeBefore = size
        for (index, operation) in operations.enumerated() {
            do throws(Failure) {
                size = try sizeAfter(operation, on: document, size: size, maxSize: maxSize)
                try apply(operation, to: &document, undo: &undo)
            } catch {
                if let undo { rollBack(undo, in: &document) }
                size = sizeBefore
                throw JSONPatchError(operationIndex: index, pointer: error.pointer, reason: error.reason)
            }
        }
    }

    /// The document's size once `operation` is applied, or a failure when it would exceed `maxSize`. Values
    /// that leave the document are measured up to the current size, values that enter it up to the budget left.
    /// An operation that will fail to apply for another reason gets a harmless estimate (the applier throws).
    /// Each location is looked up once, without allocating.
    private static func sizeAfter(_ operation: JSONPatchOperation, on document: JSONValue, size: Int,
                                  maxSize: Int) throws(Failure) -> Int {
        /// The size after `value` enters at `path` (found as `target`), with what it replaces leaving.
        func entering(_ value: JSONValue, at path: JSONPointer, _ target: Target, replacing: Bool) throws(Failure) -> Int {
            let base = max(0, size - (replacing ? leaving(target) : 0))
            let budget = maxSize - base
            let added = budget < 0 ? budget &+ 1 : value.compactSize(limit: budget) + target.overhead
            guard added <= budget else {
                throw Failure(pointer: path.description,
                              reason: "the document would grow past the limit of \(maxSize) bytes")
            }
            return base + added
        }
        /// The size of what is at `target` (0 when nothing), with its member or element overhead.
        func leaving(_ target: Target) -> Int {
            guard let old = target.value else { return 0 }
            return min(size, old.compactSize(limit: size) + target.overhead)
        }
        switch operation {
        case .add(let path, let value):
            let target = Target(path, in: document)
            // Adding to an object replaces a member of that name; adding to an array inserts.
            return try entering(value, at: path, target, replacing: target.isMember || path.tokens.isEmpty)
        case .replace(let path, let value):
            return try entering(value, at: path, Target(path, in: document), replacing: true)
        case .copy(let from, let path):
            guard let value = document[from] else { return size }
            let target = Target(path, in: document)
            return try entering(value, at: path, target, replacing: target.isMember || path.tokens.isEmpty)
        case .remove(let path):
            return max(0, size - leaving(Target(path, in: document)))
        case .move, .test:
            return size
        }
    }

    /// What a pointer designates, for size accounting: the value there (if any) and whether its last token names
    /// an object member (whose key is part of the size) or an array element.
    private struct Target {
        var value: JSONValue?
        var isMember = false
        /// Bytes besides the value: `"key":` and a comma for a member, a comma for an element, none for the root.
        var overhead = 0

        init(_ path: JSONPointer, in document: JSONValue) {
            guard let last = path.tokens.last else {
                value = document
                return
            }
            var current = document
            for token in path.tokens.dropLast() {
                switch current {
                case .object(let object):
                    guard let next = object[token] else { return }
                    current = next
                case .array(let array):
                    guard let i = JSONPointer.arrayIndex(token), i < array.count else { return }
                    current = array[i]
                default:
                    return
                }
            }
            switch current {
            case .object(let object):
                isMember = true
                overhead = last.utf8.count + 4
                value = object[last]
            case .array(let array):
                overhead = 1
                if let i = JSONPointer.arrayIndex(last), i < array.count { value = array[i] }
            default:
                return
            }
        }
    }

    /// Undoes recorded changes, latest first. The steps cannot fail on the document they were recorded on.
    private static func rollBack(_ steps: [Undo], in document: inout JSONValue) {
        var none: [Undo]? = nil
        for step in steps.reversed() {
            do throws(Failure) {
                switch step {
                case .remove(let path):
                    _ = try remove(at: path, in: &document, undo: &none)
                case .replace(let path, let value):
                    try replace(at: path, with: value, in: &document, undo: &none)
                case .insertMember(let path, let value, let position):
                    try withParent(of: path, in: &document, depth: 0) { (container: inout JSONValue, token: String) throws(Failure) in
                        guard var object = container.takeObject() else { return }
                        object.insert(value, forKey: token, at: position)
                        container = .object(object)
                    }
                case .insertElement(let path, let value):
                    try add(value, at: path, in: &document, undo: &none)
                case .root(let value):
                    document = value
                }
            } catch {
                assertionFailure("rolling back a JSON Patch failed: \(error.reason)")
            }
        }
    }

    static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue, undo: inout [Undo]?) throws(Failure) {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path, in: &document, undo: &undo)
        case .remove(let path):
            _ = try remove(at: path, in: &document, undo: &undo)
        case .replace(let path, let value):
            try replace(at: path, with: value, in: &document, undo: &undo)
        case .move(let from, let path):
            if from == path {
                guard document[from] != nil else { throw Failure(pointer: from.description, reason: "no value at the 'from' location") }
                return
            }
            if from.isPrefix(of: path) {
                throw Failure(pointer: from.description, reason: "cannot move a value into one of its own children (\(path))")
            }
            let value = try remove(at: from, in: &document, role: "'from' location", undo: &undo)
            try add(value, at: path, in: &document, undo: &undo)
        case .copy(let from, let path):
            guard let value = document[from] else {
                throw Failure(pointer: from.description, reason: "no value at the 'from' location")
            }
            try add(value, at: path, in: &document, undo: &undo)
        case .test(let path, let expected):
            guard let actual = document[path] else {
                throw Failure(pointer: path.description, reason: "test failed: no value at this location")
            }
            guard actual.isNumericallyEqual(to: expected) else {
                throw Failure(pointer: path.description,
                              reason: "test failed: found \(abbreviated(actual)), expected \(abbreviated(expected))")
            }
        }
    }

    // MARK: Operations
    //
    // Each container is taken out of its value (`takeObject`/`takeArray`), changed, and put back; on a
    // failure it is put back unchanged before throwing.

    private static func add(_ value: JSONValue, at path: JSONPointer, in document: inout JSONValue,
                            undo: inout [Undo]?) throws(Failure) {
        guard !path.tokens.isEmpty else {
            undo?.append(.root(document))
            document = value
            return
        }
        let step = try withParent(of: path, in: &document, depth: 0) { (container: inout JSONValue, token: String) throws(Failure) -> Undo in
            if var object = container.takeObject() {
                let old = object.updateValue(value, forKey: token)
                container = .object(object)
                return old.map { .replace(path, $0) } ?? .remove(path)
            }
            if var array = container.takeArray() {
                let index: Int
                if token == "-" {
                    index = array.count
                } else if let i = JSONPointer.arrayIndex(token), i <= array.count {
                    index = i
                } else {
                    let count = array.count
                    container = .array(array)
                    throw JSONPointer.arrayIndex(token) == nil
                        ? Failure(pointer: path.description, reason: "\"\(token)\" is not a valid array index")
                        : Failure(pointer: path.description,
                                  reason: "index \(token) is out of bounds for adding to an array of \(count) elements")
                }
                array.insert(value, at: index)
                container = .array(array)
                return .remove(token == "-" ? JSONPointer(tokens: path.tokens.dropLast() + [String(index)]) : path)
            }
            throw Failure(pointer: path.description, reason: "cannot add to \(container.kindNameWithArticle)")
        }
        undo?.append(step)
    }

    private static func remove(at path: JSONPointer, in document: inout JSONValue,
                               role: String = "location", undo: inout [Undo]?) throws(Failure) -> JSONValue {
        guard !path.tokens.isEmpty else {
            throw Failure(pointer: path.description, reason: "cannot remove the whole document")
        }
        let (removed, step) = try withParent(of: path, in: &document, depth: 0) { (container: inout JSONValue, token: String) throws(Failure) -> (JSONValue, Undo) in
            if var object = container.takeObject() {
                guard let i = object.index(forKey: token) else {
                    container = .object(object)
                    throw Failure(pointer: path.description, reason: "no member \"\(token)\" to remove at the \(role)")
                }
                let removed = object.remove(at: i).value
                container = .object(object)
                return (removed, .insertMember(path, removed, position: i))
            }
            if var array = container.takeArray() {
                let i = try checkedIndex(token, in: array, path: path) { container = .array(array) }
                let removed = array.remove(at: i)
                container = .array(array)
                return (removed, .insertElement(path, removed))
            }
            throw Failure(pointer: path.description, reason: "cannot remove from a \(container.kindName)")
        }
        undo?.append(step)
        return removed
    }

    private static func replace(at path: JSONPointer, with value: JSONValue, in document: inout JSONValue,
                                undo: inout [Undo]?) throws(Failure) {
        guard !path.tokens.isEmpty else {
            undo?.append(.root(document))
            document = value
            return
        }
        let old = try withParent(of: path, in: &document, depth: 0) { (container: inout JSONValue, token: String) throws(Failure) -> JSONValue in
            if var object = container.takeObject() {
                guard let i = object.index(forKey: token) else {
                    container = .object(object)
                    throw Failure(pointer: path.description, reason: "no member \"\(token)\" to replace")
                }
                let old = object.modifyValue(at: i) { (slot: inout JSONValue) -> JSONValue in
                    let old = slot
                    slot = value
                    return old
                }
                container = .object(object)
                return old
            }
            if var array = container.takeArray() {
                let i = try checkedIndex(token, in: array, path: path) { container = .array(array) }
                let old = array[i]
                array[i] = value
                container = .array(array)
                return old
            }
            throw Failure(pointer: path.description, reason: "cannot replace inside a \(container.kindName)")
        }
        undo?.append(.replace(path, old))
    }

    /// The index `token` names in `array` (which must exist); on failure calls `restore` and throws.
    @inline(__always)
    private static func checkedIndex(_ token: String, in array: [JSONValue], path: JSONPointer,
                                     restore: () -> Void) throws(Failure) -> Int {
        guard let i = JSONPointer.arrayIndex(token) else {
            restore()
            throw Failure(pointer: path.description, reason: "\"\(token)\" is not a valid array index")
        }
        guard i < array.count else {
            let count = array.count
            restore()
            throw Failure(pointer: path.description, reason: "index \(i) is out of bounds for an array of \(count) elements")
        }
        return i
    }

    // MARK: Navigation

    /// Walks to the container holding the last token of `path` (mutably, in place) and calls `body` with it.
    private static func withParent<R>(
        of path: JSONPointer, in value: inout JSONValue, depth: Int,
        _ body: (inout JSONValue, String) throws(Failure) -> R
    ) throws(Failure) -> R {
        let tokens = path.tokens
        if depth == tokens.count - 1 { return try body(&value, tokens[depth]) }
        let token = tokens[depth]
        if var object = value.takeObject() {
            guard let i = object.index(forKey: token) else {
                value = .object(object)
                throw Failure(pointer: path.description,
                              reason: "no member \"\(token)\" at \(JSONPointer(tokens: Array(tokens[..<depth])).description.nonEmptyOrRoot)")
            }
            let result: Result<R, Failure> = object.modifyValue(at: i) { (child: inout JSONValue) -> Result<R, Failure> in
                do throws(Failure) {
                    return .success(try withParent(of: path, in: &child, depth: depth + 1, body))
                } catch {
                    return .failure(error)
                }
            }
            value = .object(object)
            return try result.get()
        }
        if var array = value.takeArray() {
            let i = try checkedIndex(token, in: array, path: path) { value = .array(array) }
            let result: Result<R, Failure>
            do throws(Failure) {
                result = .success(try withParent(of: path, in: &array[i], depth: depth + 1, body))
            } catch {
                result = .failure(error)
            }
            value = .array(array)
            return try result.get()
        }
        throw Failure(pointer: path.description,
                      reason: "cannot look up \"\(token)\" in a \(value.kindName) at \(JSONPointer(tokens: Array(tokens[..<depth])).description.nonEmptyOrRoot)")
    }

    /// A short rendering of a value for error messages.
    private static func abbreviated(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count <= 80 ? text : String(text.prefix(77)) + "..."
    }
}

extension String {
    /// `self`, or `the root` when empty (for naming pointers in messages).
    fileprivate var nonEmptyOrRoot: String { isEmpty ? "the root" : self }
}
