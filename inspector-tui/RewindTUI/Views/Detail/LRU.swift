/// A tiny least-recently-used map for a handful of entries (linear scan; capacities are below 20).
/// A plain value type; not shared.
struct LRU<Key: Hashable, Value> {
    private var entries: [(key: Key, value: Value)] = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    subscript(key: Key) -> Value? {
        mutating get {
            guard let position = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: position)
            entries.append(entry)
            return entry.value
        }
        set {
            entries.removeAll { $0.key == key }
            guard let newValue else { return }
            entries.append((key, newValue))
            if entries.count > capacity { entries.removeFirst() }
        }
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
