import RewindWire

/// Moves a state rebuilt from a session file's patches forward, one stored patch at a time, within a size bound: the
/// bound a reader puts on every state it rebuilds (``SessionReader/maxStateBytes``, as the daemon bounds what it
/// ingests), so that a stored patch that multiplies the state (`copy` operations of the whole, repeated) fails naming
/// the event instead of growing until the process is killed. Keeps the state's measured size between patches.
///
/// Threading: a value used by one reader at a time.
package struct BoundedStateRebuild {
    /// The file the patches come from (named in errors).
    package let path: String
    /// The largest state allowed, in bytes of compact JSON.
    package let limit: Int
    private var size: Int?

    /// A rebuild of states of the file at `path`, at most `limit` bytes each; `measured` is the size of the state the
    /// first patch applies to, when known.
    package init(path: String, limit: Int, measured: Int? = nil) {
        self.path = path
        self.limit = limit
        size = measured
    }

    /// The size of the state after the last patch applied, when known.
    package var measuredSize: Int? { size }

    /// Applies `patch`, the patch of event `index`, to `state` (measured first when a state was put in place since:
    /// call ``reset()`` then). Throws `corrupt` naming the file and the event when it does not apply or would make
    /// the state larger than the limit.
    package mutating func apply(_ patch: JSONPatch, to state: inout JSONValue, event index: Int64) throws(SessionStoreError) {
        var measured = size ?? state.compactSize(limit: limit)
        do throws(JSONPatchError) {
            try patch.apply(to: &state, size: &measured, maxSize: limit)
            size = measured
        } catch {
            size = nil
            if error.reason.hasSuffix("the limit of \(limit) bytes") {  // JSONPatchApplier's size refusal
                throw .corrupt(path: path, detail: "the state after event \(index) is too large to rebuild: its patch "
                               + "would make it larger than the limit of \(limit) bytes of compact JSON")
            }
            throw .corrupt(path: path, detail: "the patch of event \(index) does not apply to the state before it: \(error)")
        }
    }

    /// Forgets the measured size: the next patch applies to a state put in place (measured again).
    package mutating func reset() { size = nil }
}
