/// A JSON object that keeps its keys in insertion (document) order.
///
/// Storage is two parallel arrays (keys, values). Lookups in small objects are a linear search; once an
/// object holds more than ``JSONObject/indexThreshold`` members a key → position dictionary is kept beside
/// the arrays, so lookups stay O(1) for large objects (built once when the object grows past the threshold,
/// then maintained).
///
/// - Keys are unique. Setting an existing key replaces its value in place (its position does not move).
///   When parsing a document with a repeated key, **the last value wins**, at the position of the first
///   occurrence.
/// - Equality ignores order: two objects are equal when they have the same set of keys and equal values for
///   each key (JSON semantics). Hashing is order-independent to match.
///
/// Threading: a value type; safe to share and send across threads and actors.
public struct JSONObject: Hashable, Sendable, RandomAccessCollection {
    /// Member counts above this keep a key → index dictionary; at or below it lookups scan the keys.
    public static let indexThreshold = 12

    @usableFromInline var storedKeys: [String]
    @usableFromInline var storedValues: [JSONValue]
    @usableFromInline var lookup: [String: Int]?

    /// An empty object.
    public init() {
        storedKeys = []
        storedValues = []
        lookup = nil
    }

    /// An object with these members, in this order. A repeated key: the last value wins, at the position of
    /// the first occurrence.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        storedKeys.reserveCapacity(pairs.count)
        storedValues.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// An object from parallel key and value arrays (same length). A repeated key: the last value wins, at
    /// the position of the first occurrence. This is the fastest way to build a large object.
    public init(keys: [String], values: [JSONValue]) {
        precondition(keys.count == values.count, "JSONObject(keys:values:) needs arrays of the same length")
        storedKeys = keys
        storedValues = values
        lookup = nil
        if keys.count > JSONObject.indexThreshold {
            var index = [String: Int](minimumCapacity: keys.count)
            var duplicates = false
            for i in keys.indices where index.updateValue(i, forKey: keys[i]) != nil { duplicates = true }
            if duplicates { removeDuplicates() } else { lookup = index }
        } else if keys.count > 1 {
            var duplicates = false
            outer: for i in 1..<keys.count {
                for j in 0..<i where keys[j] == keys[i] { duplicates = true; break outer }
            }
            if duplicates { removeDuplicates() }
        }
    }

    /// An object from parallel arrays whose keys are known to be unique (not checked). Builds the lookup
    /// index when the object is large.
    init(uniqueKeys keys: [String], values: [JSONValue]) {
        storedKeys = keys
        storedValues = values
        lookup = nil
        if keys.count > JSONObject.indexThreshold {
            var index = [String: Int](minimumCapacity: keys.count)
            for i in keys.indices { index[keys[i]] = i }
            lookup = index
        }
    }

    /// Rebuilds the storage keeping the first position and the last value of every key.
    private mutating func removeDuplicates() {
        let keys = storedKeys, values = storedValues
        self = JSONObject()
        for i in keys.indices { self[keys[i]] = values[i] }
    }

    // MARK: Collection

    /// The position of the first member.
    public var startIndex: Int { 0 }
    /// One past the position of the last member.
    public var endIndex: Int { storedKeys.count }
    /// The number of members.
    public var count: Int { storedKeys.count }
    /// True when the object has no members.
    public var isEmpty: Bool { storedKeys.isEmpty }

    /// The member at `position` (0-based, in order).
    public subscript(position: Int) -> (key: String, value: JSONValue) {
        (storedKeys[position], storedValues[position])
    }

    /// The keys, in order.
    public var keys: [String] { storedKeys }
    /// The values, in key order.
    public var values: [JSONValue] { storedValues }

    // MARK: Lookup and mutation

    /// The position of `key`, or `nil` when the object has no such member.
    @inlinable
    public func index(forKey key: String) -> Int? {
        if let lookup { return lookup[key] }
        return storedKeys.firstIndex(of: key)
    }

    /// The value for `key`; setting `nil` removes the member, setting a value replaces it in place or appends
    /// it at the end.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = index(forKey: key) else { return nil }
            return storedValues[i]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the value for `key` (in place when it exists, appended otherwise); returns the old value.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let i = index(forKey: key) {
            let old = storedValues[i]
            storedValues[i] = value
            return old
        }
        append(key: key, value: value)
        return nil
    }

    /// Removes the member named `key`; returns its value, or `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let i = index(forKey: key) else { return nil }
        return remove(at: i).value
    }

    /// Removes and returns the member at `position`.
    @discardableResult
    public mutating func remove(at position: Int) -> (key: String, value: JSONValue) {
        let key = storedKeys.remove(at: position)
        let value = storedValues.remove(at: position)
        if lookup != nil {
            if storedKeys.count > JSONObject.indexThreshold {
                lookup![key] = nil
                for i in position..<storedKeys.count { lookup![storedKeys[i]] = i }
            } else {
                lookup = nil
            }
        }
        return (key, value)
    }

    /// Inserts a member whose key is not present at `position` (0...count), shifting the later ones.
    mutating func insert(_ value: JSONValue, forKey key: String, at position: Int) {
        guard position < storedKeys.count else {
            append(key: key, value: value)
            return
        }
        storedKeys.insert(key, at: position)
        storedValues.insert(value, at: position)
        if lookup != nil {
            for i in position..<storedKeys.count { lookup![storedKeys[i]] = i }
        } else if storedKeys.count > JSONObject.indexThreshold {
            var index = [String: Int](minimumCapacity: storedKeys.count * 2)
            for i in storedKeys.indices { index[storedKeys[i]] = i }
            lookup = index
        }
    }

    /// Appends a member whose key is known not to be present (checked in debug builds).
    private mutating func append(key: String, value: JSONValue) {
        storedKeys.append(key)
        storedValues.append(value)
        let n = storedKeys.count
        if lookup != nil {
            lookup![key] = n - 1
        } else if n > JSONObject.indexThreshold {
            var index = [String: Int](minimumCapacity: n * 2)
            for i in 0..<n { index[storedKeys[i]] = i }
            lookup = index
        }
    }

    /// Calls `body` with the value at `position`, mutable in place (no copy of the value when the object's
    /// storage is uniquely referenced).
    public mutating func modifyValue<R, E: Error>(
        at position: Int, _ body: (inout JSONValue) throws(E) -> R
    ) throws(E) -> R {
        try body(&storedValues[position])
    }

    // MARK: Equality and hashing

    /// Order-insensitive equality: same keys, equal values per key.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        let n = lhs.storedKeys.count
        guard n == rhs.storedKeys.count else { return false }
        if lhs.storedKeys == rhs.storedKeys { return lhs.storedValues == rhs.storedValues }
        for i in 0..<n {
            guard let j = rhs.index(forKey: lhs.storedKeys[i]), lhs.storedValues[i] == rhs.storedValues[j] else {
                return false
            }
        }
        return true
    }

    /// Order-insensitive hash, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedKeys.count)
        var sum: UInt = 0
        for i in storedKeys.indices {
            var member = Hasher()
            member.combine(storedKeys[i])
            member.combine(storedValues[i])
            sum &+= UInt(bitPattern: member.finalize())
        }
        hasher.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with the literal's members in the literal's order (a repeated key: the last value wins).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text of this object.
    public var description: String { JSONValue.object(self).serialized() }
}
