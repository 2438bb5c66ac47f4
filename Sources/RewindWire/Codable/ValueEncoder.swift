import Foundation

/// The `Encoder` handed to `encode(to:)`, and the storage its containers write into.
///
/// Performance design (this encoder is on the inspector's critical path):
/// - Encoders are reused: each encoder keeps the child it last used, and reuses it for the next value when
///   nothing else holds on to it, so encoding an array of structs allocates no encoder per element; nodes of
///   nested containers (the synthesized form of enums with associated values) are pooled the same way.
/// - Each encoder remembers the keys of the last object it produced (the *template*). An object whose keys
///   come in the same order as the template (every instance of a struct type) shares the template's key
///   array (no allocation, no duplicate-key search) and reserves its value array at the right size.
///   A key off the template switches that object to a general path with duplicate handling (last wins).
///   One template is kept per key type, so encoders that alternate between types (enum cases) keep theirs.
/// - Coding paths are not maintained; they are computed by walking up the parent chain when an error needs one.
///
/// Not thread-safe: confined to the single `encode` call that created it.
final class ValueEncoder: Encoder {
    enum Kind {
        case empty, single, object, array
    }

    /// Unowned: a child never outlives the encoding of its parent's value, and a strong reference would
    /// make a cycle with `spareChild`.
    unowned let parent: ValueEncoder?
    let sendableUserInfo: [CodingUserInfoKey: any Sendable]
    /// Consulted for the values it handles (``JSONValueEncodingMemo``); nil for a plain encoding.
    let memo: (any JSONValueEncodingMemo)?
    /// How the keys of the objects this encoder finishes are written.
    let keyStyle: JSONValueEncoder.KeyStyle

    /// The mutable state. It lives behind a pointer (allocated once per encoder; encoders are reused) so
    /// that the hot paths pay no dynamic exclusivity checks, which class stored properties would.
    struct State {
        var key: (any CodingKey)? = nil
        /// The array position this encoder stands at, when `key` is nil (saves making a key per element).
        var index: Int = -1
        var kind: Kind = .empty
        var single: JSONValue = .null
        /// Values of the object or array being built.
        var values: [JSONValue] = []
        /// Keys of the objects this encoder produces, in order (a superset: optional keys may be skipped).
        var template: [String] = []
        /// While following the template: the next template position to look at.
        var cursor: Int = 0
        /// While following the template: which template positions were used (bit i for position i).
        var used: UInt64 = 0
        var following: Bool = true
        /// The keys of the last object that used only part of the template.
        var subsetKeys: [String] = []
        /// Which part of the template `subsetKeys` is.
        var subsetMask: UInt64 = 0
        /// The object being built once it left the template.
        var general: JSONObject = JSONObject()
        /// Nested containers and super encoders, resolved when this one finishes.
        var pending: [(index: Int, node: ValueEncoder)] = []
        var lastArrayCount: Int = 0
        /// The type of the last value `box` encoded through a child encoder (not a primitive or special type): the
        /// next value of that type skips the fast-path type checks (array elements are all of one type).
        var slowType: ObjectIdentifier? = nil
        /// A child kept for reuse.
        var spareChild: ValueEncoder? = nil
        /// The child a memo's array encoding used last (``JSONValueEncodingSite/encodeArray(_:reusing:)``), kept for
        /// reuse.
        var spareArrayChild: ValueEncoder? = nil
        /// Nodes of finished nested containers, kept for reuse.
        var spareNodes: [ValueEncoder] = []
        /// The key type `template` belongs to, and the templates of other key types seen here (an encoder
        /// alternates between key types when, for example, it encodes the cases of an enum).
        var templateKey: ObjectIdentifier? = nil
        var otherTemplates: [ObjectIdentifier: [String]] = [:]
        /// The keys ``JSONValueEncoder/KeyStyle/observationStorage`` writes, for the last key list seen.
        var observationKeys = ObservationStorageKeys()
    }

    private let state: UnsafeMutablePointer<State>

    var index: Int {
        @inline(__always) _read { yield state.pointee.index }
        @inline(__always) _modify { yield &state.pointee.index }
    }
    var key: (any CodingKey)? {
        @inline(__always) _read { yield state.pointee.key }
        @inline(__always) _modify { yield &state.pointee.key }
    }
    var kind: Kind {
        @inline(__always) _read { yield state.pointee.kind }
        @inline(__always) _modify { yield &state.pointee.kind }
    }
    var single: JSONValue {
        @inline(__always) _read { yield state.pointee.single }
        @inline(__always) _modify { yield &state.pointee.single }
    }
    var values: [JSONValue] {
        @inline(__always) _read { yield state.pointee.values }
        @inline(__always) _modify { yield &state.pointee.values }
    }
    var template: [String] {
        @inline(__always) _read { yield state.pointee.template }
        @inline(__always) _modify { yield &state.pointee.template }
    }
    var cursor: Int {
        @inline(__always) _read { yield state.pointee.cursor }
        @inline(__always) _modify { yield &state.pointee.cursor }
    }
    var used: UInt64 {
        @inline(__always) _read { yield state.pointee.used }
        @inline(__always) _modify { yield &state.pointee.used }
    }
    var following: Bool {
        @inline(__always) _read { yield state.pointee.following }
        @inline(__always) _modify { yield &state.pointee.following }
    }
    var subsetKeys: [String] {
        @inline(__always) _read { yield state.pointee.subsetKeys }
        @inline(__always) _modify { yield &state.pointee.subsetKeys }
    }
    var subsetMask: UInt64 {
        @inline(__always) _read { yield state.pointee.subsetMask }
        @inline(__always) _modify { yield &state.pointee.subsetMask }
    }
    var general: JSONObject {
        @inline(__always) _read { yield state.pointee.general }
        @inline(__always) _modify { yield &state.pointee.general }
    }
    var pending: [(index: Int, node: ValueEncoder)] {
        @inline(__always) _read { yield state.pointee.pending }
        @inline(__always) _modify { yield &state.pointee.pending }
    }
    var lastArrayCount: Int {
        @inline(__always) _read { yield state.pointee.lastArrayCount }
        @inline(__always) _modify { yield &state.pointee.lastArrayCount }
    }
    var spareNodes: [ValueEncoder] {
        @inline(__always) _read { yield state.pointee.spareNodes }
        @inline(__always) _modify { yield &state.pointee.spareNodes }
    }
    var templateKey: ObjectIdentifier? {
        @inline(__always) _read { yield state.pointee.templateKey }
        @inline(__always) _modify { yield &state.pointee.templateKey }
    }
    var otherTemplates: [ObjectIdentifier: [String]] {
        @inline(__always) _read { yield state.pointee.otherTemplates }
        @inline(__always) _modify { yield &state.pointee.otherTemplates }
    }
    var spareChild: ValueEncoder? {
        @inline(__always) _read { yield state.pointee.spareChild }
        @inline(__always) _modify { yield &state.pointee.spareChild }
    }
    var spareArrayChild: ValueEncoder? {
        @inline(__always) _read { yield state.pointee.spareArrayChild }
        @inline(__always) _modify { yield &state.pointee.spareArrayChild }
    }

    init(parent: ValueEncoder?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: any Sendable],
         keyStyle: JSONValueEncoder.KeyStyle, memo: (any JSONValueEncodingMemo)? = nil) {
        self.parent = parent
        self.sendableUserInfo = userInfo
        self.keyStyle = keyStyle
        self.memo = memo
        state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State(key: key))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: ValueEncoder? = self
        while let n = node {
            if let k = n.key {
                path.append(k)
            } else if n.index >= 0 {
                path.append(IndexCodingKey(n.index))
            }
            node = n.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if kind != .object { beginObject(keyType: ObjectIdentifier(Key.self)) }
        return KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if kind != .array { beginArray() }
        return UnkeyedValueEncodingContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncodingContainerImpl(encoder: self)
    }

    func setSingle(_ value: JSONValue) {
        kind = .single
        single = value
    }

    // MARK: Building objects

    func beginObject(keyType: ObjectIdentifier) {
        if keyType != templateKey { switchTemplate(to: keyType) }
        kind = .object
        cursor = 0
        used = 0
        following = true
        values.removeAll(keepingCapacity: true)
        if values.capacity < template.count { values.reserveCapacity(template.count) }
    }

    /// Puts the current template aside and takes the one of `keyType` (empty when new).
    private func switchTemplate(to keyType: ObjectIdentifier) {
        if let current = templateKey, !template.isEmpty {
            if otherTemplates.count >= 32 { otherTemplates.removeAll() }
            otherTemplates[current] = template
        }
        template = otherTemplates[keyType] ?? []
        templateKey = keyType
        subsetMask = 0
        subsetKeys = []
    }

    @inline(__always)
    func set(_ value: JSONValue, forKey key: String) {
        if following {
            if cursor < template.count && cursor < 64 && template[cursor] == key {
                used |= 1 &<< UInt64(cursor)
                cursor += 1
                values.append(value)
                return
            }
            if followTemplate(value, forKey: key) { return }
        }
        setGeneral(value, forKey: key)
    }

    /// A key that is not the next one of the template: look further along it (optional keys that were
    /// omitted are skipped); otherwise leave the template. Returns true when the key was stored.
    private func followTemplate(_ value: JSONValue, forKey key: String) -> Bool {
        var j = cursor + 1
        let limit = min(template.count, 64)
        while j < limit {
            if template[j] == key {
                used |= 1 &<< UInt64(j)
                cursor = j + 1
                values.append(value)
                return true
            }
            j += 1
        }
        leaveTemplate()
        return false
    }

    /// The keys used so far, as an array (shares storage with the template when they are all of it).
    private func keysFollowed() -> [String] {
        let n = values.count
        if n == template.count { return template }
        if used == subsetMask { return subsetKeys }
        var keys: [String] = []
        keys.reserveCapacity(n)
        for j in 0..<min(template.count, 64) where used & (1 &<< UInt64(j)) != 0 { keys.append(template[j]) }
        subsetKeys = keys
        subsetMask = used
        return keys
    }

    private func leaveTemplate() {
        following = false
        general = JSONObject(uniqueKeys: keysFollowed(), values: values)
        values = []
    }

    private func setGeneral(_ value: JSONValue, forKey key: String) {
        if !pending.isEmpty, let i = general.index(forKey: key) {
            pending.removeAll { $0.index == i }
        }
        general.updateValue(value, forKey: key)
    }

    /// Stores a placeholder for `key` whose value `node` produces when this object finishes.
    func setPending(_ node: ValueEncoder, forKey key: String) {
        set(.null, forKey: key)
        let index = following ? values.count - 1 : general.index(forKey: key)!
        pending.removeAll { $0.index == index }
        pending.append((index, node))
    }

    private func finishObject() -> JSONValue {
        if following {
            let keys = keysFollowed()
            var finished = values
            values = []
            while !pending.isEmpty {
                var (index, node) = pending.removeLast()
                finished[index] = node.result()
                recycle(&node)
            }
            return styledObject(keys: keys, values: finished)
        }
        while !pending.isEmpty {
            var (index, node) = pending.removeLast()
            let value = node.result()
            general.modifyValue(at: index) { $0 = value }
            recycle(&node)
        }
        let object = general
        general = JSONObject()
        // The next object of this type likely has these keys: make them the template.
        template = object.keys
        subsetMask = 0
        subsetKeys = []
        guard keyStyle == .observationStorage else { return .object(object) }
        return styledObject(keys: object.keys, values: object.values)
    }

    /// The object of `keys` and `values` (unique keys), its keys written in ``keyStyle``.
    @inline(__always)
    private func styledObject(keys: [String], values: [JSONValue]) -> JSONValue {
        guard keyStyle == .observationStorage else { return .object(JSONObject(uniqueKeys: keys, values: values)) }
        let styled = state.pointee.observationKeys.restyle(keys: keys, values: values)
        return .object(JSONObject(uniqueKeys: styled.keys, values: styled.values))
    }

    // MARK: Building arrays

    func beginArray() {
        kind = .array
        values.removeAll(keepingCapacity: true)
        if values.capacity < lastArrayCount { values.reserveCapacity(lastArrayCount) }
    }

    func appendPending(_ node: ValueEncoder) {
        pending.append((values.count, node))
        values.append(.null)
    }

    private func finishArray() -> JSONValue {
        var finished = values
        values = []
        while !pending.isEmpty {
            var (index, node) = pending.removeLast()
            finished[index] = node.result()
            recycle(&node)
        }
        lastArrayCount = finished.count
        return .array(finished)
    }

    /// The value built so far; resets this encoder for reuse.
    func result() -> JSONValue {
        let kind = self.kind
        self.kind = .empty
        switch kind {
        case .empty:
            return .object(JSONObject())
        case .single:
            let v = single
            single = .null
            return v
        case .object:
            return finishObject()
        case .array:
            return finishArray()
        }
    }

    /// A node standing for a nested container (or a super encoder) stored under `key`; a finished one is
    /// reused when available.
    func child(key: any CodingKey) -> ValueEncoder {
        if let node = spareNodes.popLast() {
            node.key = key
            node.index = -1
            return node
        }
        return ValueEncoder(parent: self, key: key, userInfo: sendableUserInfo, keyStyle: keyStyle, memo: memo)
    }

    /// Keeps a finished nested-container node for reuse, unless someone else still holds it.
    private func recycle(_ node: inout ValueEncoder) {
        if spareNodes.count < 8 && isKnownUniquelyReferenced(&node) { spareNodes.append(node) }
    }

    // MARK: Boxing

    func invalid(_ value: Any, _ key: (any CodingKey)?, _ reason: String) -> EncodingError {
        var path = codingPath
        if let key { path.append(key) }
        return EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: reason))
    }

    @inline(__always)
    func boxDouble(_ d: Double, _ key: @autoclosure () -> (any CodingKey)?) throws -> JSONValue {
        guard d.isFinite else { throw invalid(d, key(), "\(d) cannot be represented in JSON") }
        return .double(d)
    }

    func boxFloat(_ f: Float, _ key: @autoclosure () -> (any CodingKey)?) throws -> JSONValue {
        guard f.isFinite else { throw invalid(f, key(), "\(f) cannot be represented in JSON") }
        return .double(Double(f.description) ?? Double(f))
    }

    @inline(__always)
    func boxUInt64(_ u: UInt64, _ key: @autoclosure () -> (any CodingKey)?) throws -> JSONValue {
        guard u <= UInt64(Int64.max) else {
            throw invalid(u, key(), "\(u) is larger than Int64.max and cannot be encoded without losing precision")
        }
        return .int(Int64(u))
    }

    /// Encodes any value stored under `key` of this encoder: primitives and the special Foundation types
    /// directly, everything else through a (reused when possible) child encoder.
    /// `index` ≥ 0 says the value is an array element at that position (then `key` is only evaluated for
    /// error messages).
    func box<T: Encodable>(_ value: T, key: @autoclosure () -> (any CodingKey)?, index: Int = -1) throws -> JSONValue {
        if let memo, memo.handles(T.self) {
            return try memo.encode(value, at: JSONValueEncodingSite(encoder: self, key: key(), index: index))
        }
        return try boxUnmemoized(value, key: key(), index: index)
    }

    /// ``box(_:key:index:)`` without asking the memo about `value` itself.
    func boxUnmemoized<T: Encodable>(_ value: T, key: @autoclosure () -> (any CodingKey)?, index: Int = -1) throws
        -> JSONValue
    {
        let type = ObjectIdentifier(T.self)
        if state.pointee.slowType != type {
            if let boxed = try boxFast(value, key: key()) { return boxed }
            state.pointee.slowType = type
        }
        var child: ValueEncoder
        if let spare = spareChild {
            spareChild = nil
            child = spare
        } else {
            child = ValueEncoder(parent: self, key: nil, userInfo: sendableUserInfo, keyStyle: keyStyle, memo: memo)
        }
        if index >= 0 {
            if child.key != nil { child.key = nil }
            child.index = index
        } else {
            child.key = key()
            child.index = -1
        }
        try value.encode(to: child)
        let result = child.result()
        if isKnownUniquelyReferenced(&child) { spareChild = child }
        return result
    }

    /// The JSON value of primitives and special types, `nil` for anything else.
    /// Type identity checks are pointer comparisons; the casts after them cannot fail.
    @inline(__always)
    func boxFast<T: Encodable>(_ value: T, key: @autoclosure () -> (any CodingKey)?) throws -> JSONValue? {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return try boxDouble(unsafeBitCast(value, to: Double.self), key()) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == JSONValue.self { return (value as! JSONValue) }
        if T.self == Date.self { return try boxDouble((value as! Date).timeIntervalSince1970, key()) }
        if T.self == Int64.self { return .int(unsafeBitCast(value, to: Int64.self)) }
        if T.self == Int32.self { return .int(Int64(unsafeBitCast(value, to: Int32.self))) }
        if T.self == UInt64.self { return try boxUInt64(unsafeBitCast(value, to: UInt64.self), key()) }
        if T.self == UInt.self { return try boxUInt64(UInt64(unsafeBitCast(value, to: UInt.self)), key()) }
        if T.self == Float.self { return try boxFloat(unsafeBitCast(value, to: Float.self), key()) }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == JSONObject.self { return .object(value as! JSONObject) }
        if T.self == Decimal.self { return boxDecimal(value as! Decimal) }
        // Arrays of primitives skip the unkeyed-container protocol entirely.
        if T.self == [String].self { return .array(unsafeBitCast(value, to: [String].self).map { .string($0) }) }
        if T.self == [Int].self { return .array(unsafeBitCast(value, to: [Int].self).map { .int(Int64($0)) }) }
        if T.self == [Double].self { return try boxDoubles(unsafeBitCast(value, to: [Double].self), key()) }
        if T.self == [Bool].self { return .array(unsafeBitCast(value, to: [Bool].self).map { .bool($0) }) }
        if T.self == [Int64].self { return .array(unsafeBitCast(value, to: [Int64].self).map { .int($0) }) }
        if T.self == [JSONValue].self { return .array(unsafeBitCast(value, to: [JSONValue].self)) }
        // So do string-keyed dictionaries of primitives (keys in the dictionary's order, as Codable gives).
        if T.self == [String: String].self { return boxDictionary(unsafeBitCast(value, to: [String: String].self)) { .string($0) } }
        if T.self == [String: Int].self { return boxDictionary(unsafeBitCast(value, to: [String: Int].self)) { .int(Int64($0)) } }
        if T.self == [String: Bool].self { return boxDictionary(unsafeBitCast(value, to: [String: Bool].self)) { .bool($0) } }
        if T.self == [String: JSONValue].self { return boxDictionary(unsafeBitCast(value, to: [String: JSONValue].self)) { $0 } }
        return nil
    }

    func boxDictionary<V>(_ dictionary: [String: V], _ transform: (V) -> JSONValue) -> JSONValue {
        var keys: [String] = [], values: [JSONValue] = []
        keys.reserveCapacity(dictionary.count)
        values.reserveCapacity(dictionary.count)
        for (k, v) in dictionary {
            keys.append(k)
            values.append(transform(v))
        }
        return styledObject(keys: keys, values: values)
    }

    func boxDoubles(_ doubles: [Double], _ key: (any CodingKey)?) throws -> JSONValue {
        var elements: [JSONValue] = []
        elements.reserveCapacity(doubles.count)
        for (i, d) in doubles.enumerated() {
            guard d.isFinite else {
                let child = ValueEncoder(parent: self, key: key, userInfo: sendableUserInfo, keyStyle: keyStyle)
                throw child.invalid(d, IndexCodingKey(i), "\(d) cannot be represented in JSON")
            }
            elements.append(.double(d))
        }
        return .array(elements)
    }

    func boxDecimal(_ d: Decimal) -> JSONValue {
        let text = d.description
        if let i = Int64(text) { return .int(i) }
        return .double(Double(text) ?? NSDecimalNumber(decimal: d).doubleValue)
    }
}
