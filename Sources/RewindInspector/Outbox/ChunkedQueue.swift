/// A first-in, first-out queue stored in chunks of at most ``chunkSize`` elements, for the outbox.
///
/// Why chunks: a burst can queue hundreds of thousands of entries. In one array, each doubling of its storage copies
/// every queued entry, and reclaiming the drained front moves the rest — tens of milliseconds under the outbox's lock,
/// which the app's thread would wait for. Here an append writes into the last chunk (starting a new one every
/// ``chunkSize`` elements, reusing a drained chunk's storage when one is spare), and taking from the front never moves
/// what stays. Once drained, at most three chunks' storage is kept.
///
/// Threading: a value type without synchronisation; the outbox guards it with its lock.
@usableFromInline
struct ChunkedQueue<Element> {
    /// The most elements one chunk holds.
    @usableFromInline static var chunkSize: Int { 4096 }

    /// The chunk appends go to.
    @usableFromInline var tail: [Element] = []
    /// Full chunks between ``head`` and ``tail``, oldest first.
    @usableFromInline var middle: [[Element]] = []
    /// The chunk taken from, from ``headIndex`` on.
    @usableFromInline var head: [Element] = []
    @usableFromInline var headIndex = 0
    /// A drained chunk's storage, kept for the next new chunk.
    @usableFromInline var spare: [Element]?
    /// How many elements are queued.
    @usableFromInline var count = 0

    /// An empty queue whose first chunk has room for `initialCapacity` elements.
    init(initialCapacity: Int = 1024) {
        tail.reserveCapacity(min(initialCapacity, Self.chunkSize))
    }

    /// True when nothing is queued.
    var isEmpty: Bool { count == 0 }

    /// Appends one element. O(1); allocates only when a chunk is full and no drained chunk is spare.
    @inlinable
    mutating func append(_ element: Element) {
        if tail.count >= Self.chunkSize { startChunk() }
        tail.append(element)
        count += 1
    }

    /// Moves the full tail chunk to ``middle`` and starts a new one.
    @usableFromInline
    mutating func startChunk() {
        middle.append(tail)
        tail = takeSpare(reserving: true)
    }

    /// An empty chunk: the kept spare's storage when there is one, else a new array (with room for a whole chunk
    /// when `reserving`).
    @usableFromInline
    mutating func takeSpare(reserving: Bool) -> [Element] {
        if var reused = spare {
            spare = nil
            reused.removeAll(keepingCapacity: true)
            return reused
        }
        var fresh: [Element] = []
        if reserving { fresh.reserveCapacity(Self.chunkSize) }
        return fresh
    }

    /// The element appended last, if any is queued.
    var last: Element? {
        guard count > 0 else { return nil }
        return tail.last ?? middle.last?.last ?? head.last
    }

    /// The element appended before the last one, if two are queued.
    var secondLast: Element? {
        guard count > 1 else { return nil }
        if tail.count >= 2 { return tail[tail.count - 2] }
        // The last element opens a chunk (or is the only one left in the head): the one before ends the chunk
        // before it, or sits just before it in the head.
        if tail.count == 1 { return middle.last?.last ?? head.last }
        if let full = middle.last {
            return full.count >= 2 ? full[full.count - 2] : (middle.count >= 2 ? middle[middle.count - 2].last : head.last)
        }
        return head.count - headIndex >= 2 ? head[head.count - 2] : nil
    }

    /// Takes up to `limit` elements from the front, oldest first.
    mutating func removeFirst(upTo limit: Int) -> [Element] {
        var taken: [Element] = []
        taken.reserveCapacity(min(limit, count))
        while taken.count < limit && count > 0 {
            if headIndex == head.count { advanceHead() }
            let end = min(head.count, headIndex + (limit - taken.count))
            taken.append(contentsOf: head[headIndex..<end])
            count -= end - headIndex
            headIndex = end
        }
        if headIndex == head.count && !head.isEmpty { advanceHead() }
        return taken
    }

    /// Takes one element from the front. The queue must not be empty.
    mutating func removeFirst() -> Element {
        if headIndex == head.count { advanceHead() }
        let element = head[headIndex]
        headIndex += 1
        count -= 1
        if headIndex == head.count { advanceHead() }
        return element
    }

    /// Retires the drained head chunk (keeping its storage as the spare when it is no larger than a chunk) and
    /// makes the next chunk the head.
    private mutating func advanceHead() {
        var drained = head
        head = []
        headIndex = 0
        drained.removeAll(keepingCapacity: true)
        if spare == nil && drained.capacity > 0 && drained.capacity <= Self.chunkSize * 2 { spare = drained }
        if !middle.isEmpty {
            head = middle.removeFirst()
        } else if !tail.isEmpty {
            head = tail
            tail = takeSpare(reserving: false)
        }
    }
}
