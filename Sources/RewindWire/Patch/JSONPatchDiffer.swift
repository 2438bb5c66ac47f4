/// Computes a JSON Patch that turns one document into another. See ``JSONPatch/diff(from:to:)`` for the
/// strategy and its cost.
///
/// Threading: a value used by one thread for one diff.
struct JSONPatchDiffer {
    private(set) var operations: [JSONPatchOperation] = []
    private var path: [String] = []

    /// Comparisons the array edit search may spend on one array (bounds the search depth for big arrays).
    static let editSearchBudget = 200_000
    /// The most edits the array edit search looks for before falling back to position-wise comparison.
    static let maxEditSearchDepth = 64

    mutating func diff(_ a: JSONValue, _ b: JSONValue) {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            diffObjects(x, y)
        case (.array(let x), .array(let y)):
            diffArrays(x, y)
        case (.string(let x), .string(let y)):
            if x != y { emitReplace(b) }
        case (.int(let x), .int(let y)):
            if x != y { emitReplace(b) }
        case (.double(let x), .double(let y)):
            // Bitwise, so that 0.0 → -0.0 is a change and NaN (not JSON, but representable) is stable.
            if x.bitPattern != y.bitPattern && !(x.isNaN && y.isNaN) { emitReplace(b) }
        case (.bool(let x), .bool(let y)):
            if x != y { emitReplace(b) }
        case (.null, .null):
            break
        default:
            emitReplace(b)
        }
    }

    private mutating func emitReplace(_ value: JSONValue) {
        operations.append(.replace(path: JSONPointer(tokens: path), value: value))
    }

    // MARK: Objects

    private mutating func diffObjects(_ x: JSONObject, _ y: JSONObject) {
        if sameStorage(x.storedValues, y.storedValues) && sameStorage(x.storedKeys, y.storedKeys) { return }
        let xKeys = x.storedKeys, yKeys = y.storedKeys
        if xKeys == yKeys {
            // Same keys in the same order (the common case for encoded structs): compare position-wise.
            let xValues = x.storedValues, yValues = y.storedValues
            for i in xKeys.indices {
                path.append(xKeys[i])
                diff(xValues[i], yValues[i])
                path.removeLast()
            }
            return
        }
        for i in xKeys.indices {
            let key = xKeys[i]
            path.append(key)
            if let j = y.index(forKey: key) {
                diff(x.storedValues[i], y.storedValues[j])
            } else {
                operations.append(.remove(path: JSONPointer(tokens: path)))
            }
            path.removeLast()
        }
        for j in yKeys.indices where x.index(forKey: yKeys[j]) == nil {
            path.append(yKeys[j])
            operations.append(.add(path: JSONPointer(tokens: path), value: y.storedValues[j]))
            path.removeLast()
        }
    }

    // MARK: Arrays

    private mutating func diffArrays(_ x: [JSONValue], _ y: [JSONValue]) {
        if sameStorage(x, y) { return }
        var start = 0
        var endX = x.count, endY = y.count
        var single = false
        x.withUnsafeBufferPointer { px in
            y.withUnsafeBufferPointer { py in
                // First by bytes alone (a subtree reused from the previous encoding has the same bytes): when that
                // leaves one element in each, it is diffed as it is, without first comparing it whole — a changed
                // element deep in a big array is then reached along its path only.
                while start < px.count && start < py.count && Self.sameBytes(px, start, py, start) { start += 1 }
                while endX > start && endY > start && Self.sameBytes(px, endX - 1, py, endY - 1) {
                    endX -= 1
                    endY -= 1
                }
                if endX - start == 1 && endY - start == 1 {
                    single = true
                    return
                }
                while start < endX && start < endY && Self.same(px, start, py, start) { start += 1 }
                while endX > start && endY > start && Self.same(px, endX - 1, py, endY - 1) {
                    endX -= 1
                    endY -= 1
                }
            }
        }
        if single {
            diffElement(at: start, x[start], y[start])
            return
        }
        let dx = endX - start, dy = endY - start
        if dx == 0 && dy == 0 { return }
        if dx == 0 {
            for k in 0..<dy { emitAdd(at: start + k, y[start + k]) }
            return
        }
        if dy == 0 {
            for index in stride(from: endX - 1, through: start, by: -1) { emitRemove(at: index) }
            return
        }
        if dx == 1 && dy == 1 {
            diffElement(at: start, x[start], y[start])
            return
        }
        let maxDepth = min(JSONPatchDiffer.maxEditSearchDepth,
                           max(1, JSONPatchDiffer.editSearchBudget / (dx + dy)))
        if abs(dx - dy) <= maxDepth,
           let script = ArrayEditScript.shortest(x[start..<endX], y[start..<endY], maxEdits: maxDepth) {
            emit(script, x: x, xStart: start, y: y, yStart: start)
        } else {
            // Too many edits to search for: compare position-wise, then trim or extend the tail.
            let common = min(dx, dy)
            for k in 0..<common { diffElement(at: start + k, x[start + k], y[start + k]) }
            if dx > dy {
                for index in stride(from: endX - 1, through: start + common, by: -1) { emitRemove(at: index) }
            } else {
                for k in common..<dy { emitAdd(at: start + k, y[start + k]) }
            }
        }
    }

    /// Turns an edit script into operations. A run of deletions next to a run of insertions is paired up
    /// element by element and diffed recursively (a changed element becomes a nested change, not a
    /// remove + add); the rest of the run becomes removes or adds.
    private mutating func emit(_ script: [ArrayEditScript.Edit], x: [JSONValue], xStart: Int, y: [JSONValue], yStart: Int) {
        var current = xStart   // index in the array as patched so far
        var i = 0
        var deleted: [Int] = [], inserted: [Int] = []
        while i < script.count {
            if case .keep = script[i] {
                current += 1
                i += 1
                continue
            }
            deleted.removeAll(keepingCapacity: true)
            inserted.removeAll(keepingCapacity: true)
            while i < script.count {
                switch script[i] {
                case .delete(let a): deleted.append(a)
                case .insert(let b): inserted.append(b)
                case .keep: break
                }
                if case .keep = script[i] { break }
                i += 1
            }
            let pairs = min(deleted.count, inserted.count)
            for p in 0..<pairs {
                diffElement(at: current, x[xStart + deleted[p]], y[yStart + inserted[p]])
                current += 1
            }
            for _ in pairs..<max(pairs, deleted.count) { emitRemove(at: current) }
            for p in pairs..<max(pairs, inserted.count) {
                emitAdd(at: current, y[yStart + inserted[p]])
                current += 1
            }
        }
    }

    private mutating func diffElement(at index: Int, _ a: JSONValue, _ b: JSONValue) {
        path.append(String(index))
        diff(a, b)
        path.removeLast()
    }

    private mutating func emitAdd(at index: Int, _ value: JSONValue) {
        path.append(String(index))
        operations.append(.add(path: JSONPointer(tokens: path), value: value))
        path.removeLast()
    }

    private mutating func emitRemove(at index: Int) {
        path.append(String(index))
        operations.append(.remove(path: JSONPointer(tokens: path)))
        path.removeLast()
    }

    /// True when `x[i]` equals `y[j]`: at once when their bytes are equal (the same scalars, the same storage — what
    /// a subtree reused from the previous encoding looks like), with `==` otherwise. Compared in place, not copied.
    @inline(__always)
    private static func same(_ x: UnsafeBufferPointer<JSONValue>, _ i: Int, _ y: UnsafeBufferPointer<JSONValue>,
                             _ j: Int) -> Bool {
        sameBytes(x, i, y, j) || x[i] == y[j]
    }

    /// True when `x[i]` and `y[j]` have the same bytes (so are equal); false says nothing.
    @inline(__always)
    private static func sameBytes(_ x: UnsafeBufferPointer<JSONValue>, _ i: Int, _ y: UnsafeBufferPointer<JSONValue>,
                                  _ j: Int) -> Bool {
        ValueBytes.equal(UnsafeRawPointer(x.baseAddress! + i), UnsafeRawPointer(y.baseAddress! + j),
                         count: MemoryLayout<JSONValue>.size)
    }

    /// True when both arrays share one buffer (so are equal without looking at the elements).
    @inline(__always)
    private func sameStorage<T>(_ a: [T], _ b: [T]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
    }
}
