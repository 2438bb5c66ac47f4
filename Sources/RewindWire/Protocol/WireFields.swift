/// Reads the fields of one JSON object of a message, producing ``WireError``s that name the field by its
/// path (`action.seq`, `batch.events[2].action.type`). `null` counts as absent for optional fields. Unknown
/// fields are ignored.
///
/// Threading: a value used by one thread.
struct WireFields {
    let object: JSONObject
    /// The path of this object (`action`, `batch.events[2]`).
    let path: String

    init(_ object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    /// Reads `value` as an object, or throws `bad_field` naming `path`.
    init(_ value: JSONValue, path: String) throws(WireError) {
        guard case .object(let o) = value else {
            throw WireFields.badField(path, "expected an object, found \(value.kindName)")
        }
        self.init(o, path: path)
    }

    func fieldPath(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    static func badField(_ path: String, _ reason: String) -> WireError {
        WireError(code: .badField, message: "\(path): \(reason)", field: path)
    }

    static func missingField(_ path: String) -> WireError {
        WireError(code: .missingField, message: path, field: path)
    }

    // MARK: Presence

    func required(_ name: String) throws(WireError) -> JSONValue {
        guard let v = object[name], !v.isNull else { throw WireFields.missingField(fieldPath(name)) }
        return v
    }

    /// The value, `null` included (for fields where `null` is a meaningful value, like a state).
    func requiredAllowingNull(_ name: String) throws(WireError) -> JSONValue {
        guard let v = object[name] else { throw WireFields.missingField(fieldPath(name)) }
        return v
    }

    func optional(_ name: String) -> JSONValue? {
        guard let v = object[name], !v.isNull else { return nil }
        return v
    }

    // MARK: Typed

    func string(_ name: String) throws(WireError) -> String {
        try asString(try required(name), name)
    }

    func optionalString(_ name: String) throws(WireError) -> String? {
        guard let v = optional(name) else { return nil }
        return try asString(v, name)
    }

    private func asString(_ v: JSONValue, _ name: String) throws(WireError) -> String {
        guard case .string(let s) = v else { throw WireFields.badField(fieldPath(name), "expected a string, found \(v.kindName)") }
        return s
    }

    func bool(_ name: String) throws(WireError) -> Bool {
        try asBool(try required(name), name)
    }

    func optionalBool(_ name: String) throws(WireError) -> Bool? {
        guard let v = optional(name) else { return nil }
        return try asBool(v, name)
    }

    private func asBool(_ v: JSONValue, _ name: String) throws(WireError) -> Bool {
        guard case .bool(let b) = v else { throw WireFields.badField(fieldPath(name), "expected a boolean, found \(v.kindName)") }
        return b
    }

    func int(_ name: String) throws(WireError) -> Int {
        try asInt(try required(name), name)
    }

    func optionalInt(_ name: String) throws(WireError) -> Int? {
        guard let v = optional(name) else { return nil }
        return try asInt(v, name)
    }

    private func asInt(_ v: JSONValue, _ name: String) throws(WireError) -> Int {
        guard let i = v.int64Value, let int = Int(exactly: i) else {
            throw WireFields.badField(fieldPath(name), "expected an integer, found \(describe(v))")
        }
        return int
    }

    func uint64(_ name: String) throws(WireError) -> UInt64 {
        try asUInt64(try required(name), name)
    }

    func optionalUInt64(_ name: String) throws(WireError) -> UInt64? {
        guard let v = optional(name) else { return nil }
        return try asUInt64(v, name)
    }

    /// An app's action number (`seq`, `from`, `to`): a non-negative integer up to ``WireRanges/actionNumber``;
    /// `bad_field` otherwise.
    func actionNumber(_ name: String) throws(WireError) -> UInt64 {
        try asActionNumber(try required(name), name)
    }

    /// ``actionNumber(_:)`` for an optional member.
    func optionalActionNumber(_ name: String) throws(WireError) -> UInt64? {
        guard let v = optional(name) else { return nil }
        return try asActionNumber(v, name)
    }

    private func asActionNumber(_ v: JSONValue, _ name: String) throws(WireError) -> UInt64 {
        let number = try asUInt64(v, name)
        guard WireRanges.actionNumber.contains(number) else {
            throw WireFields.badField(fieldPath(name), "an action number must be at most "
                                          + "\(WireRanges.actionNumber.upperBound) (2^53 - 1), found \(number)")
        }
        return number
    }

    private func asUInt64(_ v: JSONValue, _ name: String) throws(WireError) -> UInt64 {
        guard let i = v.int64Value, i >= 0 else {
            throw WireFields.badField(fieldPath(name), "expected a non-negative integer, found \(describe(v))")
        }
        return UInt64(i)
    }

    /// An event's `source`: a location's text, or the number of one sent earlier (see ``SourceTable``).
    func optionalSource(_ name: String) throws(WireError) -> EventSource? {
        guard let v = optional(name) else { return nil }
        if case .string(let text) = v { return .location(text) }
        guard let number = v.int64Value, number >= 0, number < Int64(SourceTable.capacity) else {
            throw WireFields.badField(fieldPath(name), "expected a location (string) or a source number below "
                                          + "\(SourceTable.capacity), found \(describe(v))")
        }
        return .reference(Int(number))
    }

    func double(_ name: String) throws(WireError) -> Double {
        try asDouble(try required(name), name)
    }

    func optionalDouble(_ name: String) throws(WireError) -> Double? {
        guard let v = optional(name) else { return nil }
        return try asDouble(v, name)
    }

    private func asDouble(_ v: JSONValue, _ name: String) throws(WireError) -> Double {
        guard let d = v.doubleValue else { throw WireFields.badField(fieldPath(name), "expected a number, found \(v.kindName)") }
        return d
    }

    /// A time in seconds since 1970 inside ``WireRanges/time``; `bad_field` otherwise.
    func time(_ name: String) throws(WireError) -> Double {
        try inRange(try double(name), WireRanges.time, name, "a time in seconds since 1970")
    }

    /// An optional duration in microseconds inside ``WireRanges/micros``; `bad_field` otherwise.
    func optionalMicros(_ name: String) throws(WireError) -> Double? {
        guard let value = try optionalDouble(name) else { return nil }
        return try inRange(value, WireRanges.micros, name, "a duration in microseconds")
    }

    private func inRange(_ value: Double, _ range: ClosedRange<Double>, _ name: String,
                         _ what: String) throws(WireError) -> Double {
        guard range.contains(value) else {
            throw WireFields.badField(fieldPath(name), "expected \(what) from \(WireRanges.text(range.lowerBound)) "
                                          + "to \(WireRanges.text(range.upperBound)), found \(WireRanges.text(value))")
        }
        return value
    }

    func array(_ name: String) throws(WireError) -> [JSONValue] {
        try asArray(try required(name), name)
    }

    func optionalArray(_ name: String) throws(WireError) -> [JSONValue]? {
        guard let v = optional(name) else { return nil }
        return try asArray(v, name)
    }

    private func asArray(_ v: JSONValue, _ name: String) throws(WireError) -> [JSONValue] {
        guard case .array(let a) = v else { throw WireFields.badField(fieldPath(name), "expected an array, found \(v.kindName)") }
        return a
    }

    func strings(_ name: String) throws(WireError) -> [String]? {
        guard let elements = try optionalArray(name) else { return nil }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            guard case .string(let s) = element else {
                throw WireFields.badField("\(fieldPath(name))[\(i)]", "expected a string, found \(element.kindName)")
            }
            result.append(s)
        }
        return result
    }

    func fields(_ name: String) throws(WireError) -> WireFields {
        try WireFields(try required(name), path: fieldPath(name))
    }

    func optionalFields(_ name: String) throws(WireError) -> WireFields? {
        guard let v = optional(name) else { return nil }
        return try WireFields(v, path: fieldPath(name))
    }

    func patch(_ name: String) throws(WireError) -> JSONPatch {
        let v = try required(name)
        do {
            return try JSONPatch(json: v)
        } catch {
            throw WireFields.badField(fieldPath(name), "not a valid JSON Patch: \(error)")
        }
    }

    private func describe(_ v: JSONValue) -> String {
        switch v {
        case .int, .double: return v.serialized()
        default: return v.kindName
        }
    }
}
