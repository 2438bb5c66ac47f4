import RewindWire

/// The locations one JSON Patch changes, as the session file's path index records them (docs/SESSION-FORMAT.md,
/// "The path index"): the pointer of every operation that changes something (`add`, `remove`, `replace`, the
/// target of `move` and `copy`, and the source of `move`; never `test`), and for operations that insert into or
/// remove from an array, the array and the positions whose element changes (every element after the position
/// moves, up to the array's end).
/// Threading: a plain value; `Sendable`.
package struct PatchTouches: Sendable, Hashable {
    /// The changed locations, as JSON Pointer text, without duplicates, in first-seen order.
    package var paths: [String] = []
    /// The arrays whose elements shift.
    package var reshapes: [Reshape] = []

    /// One insertion into or removal from an array (or a member whose name looks like an index, when the
    /// state is not known: the positions then run to `Int64.max`).
    package struct Reshape: Sendable, Hashable {
        /// The array's pointer text.
        var parent: String
        /// The first position whose element changes.
        var first: Int64
        /// The last position whose element changes (the array's end before a removal, after an insertion).
        var last: Int64
    }

    /// The touches of `patch`, which turned some state into `stateAfter` (read for the lengths of the arrays
    /// it inserts into or removes from; without it every insertion or removal shifts to the end of time).
    package init(_ patch: JSONPatch, stateAfter: JSONValue? = nil) {
        // The net change of each array's length, to find its length before the patch.
        var growth: [JSONPointer: Int] = [:]
        func grow(_ pointer: JSONPointer, by delta: Int) {
            guard let last = pointer.tokens.last, last == "-" || JSONPointer.arrayIndex(last) != nil,
                  let parent = pointer.parent else { return }
            growth[parent, default: 0] += delta
        }
        for operation in patch.operations {
            switch operation {
            case .add(let path, _), .copy(_, let path): grow(path, by: 1)
            case .remove(let path): grow(path, by: -1)
            case .move(let from, let path):
                grow(from, by: -1)
                grow(path, by: 1)
            case .replace, .test: break
            }
        }
        var lengths: [JSONPointer: Int] = [:]
        if let stateAfter {
            for (parent, delta) in growth {
                if case .array(let elements)? = stateAfter[parent] { lengths[parent] = elements.count - delta }
            }
        }
        var seen = Set<String>()
        var seenReshapes = Set<Reshape>()
        var paths: [String] = []
        var shifts: [Reshape] = []
        func touch(_ pointer: JSONPointer, inserting: Bool? = nil) {
            let text = pointer.description
            if seen.insert(text).inserted { paths.append(text) }
            guard let inserting, let last = pointer.tokens.last, let parent = pointer.parent else { return }
            let known = lengths[parent]
            if let known { lengths[parent] = known + (inserting ? 1 : -1) }
            guard let position = JSONPointer.arrayIndex(last) else { return }  // `-`: appends, shifts nothing
            let end: Int64
            if let known {
                end = Int64(inserting ? known : known - 1)
                if inserting ? position >= known : position >= known - 1 { return }  // at the end: shifts nothing
            } else {
                end = Int64.max
            }
            let reshape = Reshape(parent: parent.description, first: Int64(position), last: end)
            if seenReshapes.insert(reshape).inserted { shifts.append(reshape) }
        }
        for operation in patch.operations {
            switch operation {
            case .add(let path, _), .copy(_, let path): touch(path, inserting: true)
            case .remove(let path): touch(path, inserting: false)
            case .replace(let path, _): touch(path)
            case .move(let from, let path):
                touch(from, inserting: false)
                touch(path, inserting: true)
            case .test: break
            }
        }
        self.paths = paths
        self.reshapes = shifts
    }

    /// True when these touches change the value at `pointer` (tokens `target`, text `targetText`): an operation
    /// at it, under it or at one of its ancestors, or an insertion or removal at or before one of its array
    /// positions. The same rule the indexed query applies (`SessionReader.history(of:…)`).
    package func affect(_ target: JSONPointer, text targetText: String) -> Bool {
        for path in paths where PatchTouches.related(path, targetText) { return true }
        guard !reshapes.isEmpty else { return false }
        var parent = JSONPointer.root
        for token in target.tokens {
            if let position = JSONPointer.arrayIndex(token) {
                let parentText = parent.description
                let at = Int64(position)
                if reshapes.contains(where: { $0.parent == parentText && $0.first <= at && at <= $0.last }) {
                    return true
                }
            }
            parent = parent.appending(token)
        }
        return false
    }

    /// True when pointer text `a` equals `b`, or one is an ancestor of the other.
    package static func related(_ a: String, _ b: String) -> Bool {
        a == b || isAncestor(a, of: b) || isAncestor(b, of: a)
    }

    /// True when pointer text `ancestor` is a proper ancestor of `other` (the root is everyone's ancestor).
    package static func isAncestor(_ ancestor: String, of other: String) -> Bool {
        if ancestor.isEmpty { return !other.isEmpty }
        return other.utf8.count > ancestor.utf8.count && other.hasPrefix(ancestor)
            && other.utf8[other.utf8.index(other.utf8.startIndex, offsetBy: ancestor.utf8.count)] == UInt8(ascii: "/")
    }
}
