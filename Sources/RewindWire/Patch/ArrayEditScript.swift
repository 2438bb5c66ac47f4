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
