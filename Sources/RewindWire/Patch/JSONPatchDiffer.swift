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
        while start < x.count && start < y.count && x[start] == y[start] { start += 1 }
        var endX = x.count, endY = y.count
        while endX > start && endY > start && x[endX - 1] == y[endY - 1] {
            endX -= 1
            endY -= 1
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

    /// True when both arrays share one buffer (so are equal without looking at the elements).
    @inline(__always)
    private func sameStorage<T>(_ a: [T], _ b: [T]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
    }
}

/// The shortest edit script between two arrays (Myers' O((N+M)·D) algorithm), bounded by a maximum number
/// of edits. Elements are compared by precomputed hash first, then by `==`.
enum ArrayEditScript {
    enum Edit: Equatable {
        /// The elements at the current positions are equal.
        case keep
        /// The element at this offset of the first slice is deleted.
        case delete(Int)
        /// The element at this offset of the second slice is inserted.
        case insert(Int)
    }

    /// The script, or `nil` when it needs more than `maxEdits` insertions and deletions.
    static func shortest(_ a: ArraySlice<JSONValue>, _ b: ArraySlice<JSONValue>, maxEdits: Int) -> [Edit]? {
        let x = Array(a), y = Array(b)
        let n = x.count, m = y.count
        let hx = x.map(\.hashValue), hy = y.map(\.hashValue)
        func equal(_ i: Int, _ j: Int) -> Bool { hx[i] == hy[j] && x[i] == y[j] }

        let offset = maxEdits + 1
        var v = [Int](repeating: 0, count: 2 * maxEdits + 3)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...maxEdits {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var px: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    px = v[offset + k + 1]
                } else {
                    px = v[offset + k - 1] + 1
                }
                var py = px - k
                while px < n && py < m && equal(px, py) {
                    px += 1
                    py += 1
                }
                v[offset + k] = px
                if px >= n && py >= m {
                    found = true
                    break search
                }
            }
        }
        guard found else { return nil }

        var edits: [Edit] = []
        var px = n, py = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let vd = trace[d]
            let k = px - py
            let prevK: Int
            if k == -d || (k != d && vd[offset + k - 1] < vd[offset + k + 1]) {
                prevK = k + 1
            } else {
                prevK = k - 1
            }
            let prevX = d == 0 ? 0 : vd[offset + prevK]
            let prevY = d == 0 ? 0 : prevX - prevK
            while px > prevX && py > prevY {
                edits.append(.keep)
                px -= 1
                py -= 1
            }
            if d > 0 {
                if px == prevX {
                    edits.append(.insert(py - 1))
                } else {
                    edits.append(.delete(px - 1))
                }
            }
            px = prevX
            py = prevY
        }
        edits.reverse()
        return edits
    }
}
