/// The id generator injected at launch: 1, 2, 3… so that running the same commands again gives the same ids (and
/// the same session), unlike random identifiers.
///
/// Threading: main actor, where the interpreter's handlers run.
@MainActor
final class SequentialIDs {
    private var last: Int

    /// A generator whose first id is `last + 1`.
    init(startingAfter last: Int = 0) {
        self.last = last
    }

    /// The next id.
    func next() -> Int {
        last += 1
        return last
    }

    /// Makes sure no id up to `id` is given out from now on (called with the largest id of a loaded list).
    func skip(past id: Int) {
        last = max(last, id)
    }
}
