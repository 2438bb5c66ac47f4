// Moving a container out of a `JSONValue` so that it can be mutated in place.

extension JSONValue {
    /// If this is an object: leaves `.null` in its place and returns the object, uniquely referenced when the
    /// value was — mutate it and put it back with `self = .object(object)`. `nil` (and no change) otherwise.
    ///
    /// (A `switch` that binds `case .object(var o)` keeps a second reference for the duration of the switch,
    /// so mutating `o` would copy its storage; this does not.)
    @inline(__always)
    mutating func takeObject() -> JSONObject? {
        guard case .object(let object) = self else { return nil }
        self = .null
        return object
    }

    /// Like ``takeObject()``, for arrays.
    @inline(__always)
    mutating func takeArray() -> [JSONValue]? {
        guard case .array(let array) = self else { return nil }
        self = .null
        return array
    }
}
