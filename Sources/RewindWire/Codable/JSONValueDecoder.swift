import Foundation

/// Decodes `Decodable` values straight from a ``JSONValue`` tree, with no JSON text in between. The inverse
/// of ``JSONValueEncoder``:
/// - Integer types accept `.int` in range, and `.double` whose value is an exact integer in range
///   (`3.0` → `3`); anything else throws `DecodingError.typeMismatch` or `.dataCorrupted` (out of range).
/// - `Double`/`Float` accept `.double` and `.int`. `Bool` only `.bool`, `String` only `.string`.
/// - `Date` from a number of seconds since 1970; `Data` from a base64 string; `URL` from a string;
///   `Decimal` from a number; `JSONValue`/`JSONObject` as they are.
/// - A missing key throws `DecodingError.keyNotFound`; `decodeIfPresent` gives `nil` for a missing key or
///   `null`. Members the type does not know are ignored.
///
/// Threading: the decoder is an immutable value; each `decode` call uses its own state, so one decoder may
/// be used from several threads at once.
public struct JSONValueDecoder: Sendable {
    /// Passed to the values' `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// A decoder with no user info.
    public init() {
        userInfo = [:]
    }

    /// Decodes a `T` from `value`. Throws `DecodingError` when the shape does not match.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let root = ValueDecoder(value: value, parent: nil, key: nil, userInfo: userInfo)
        return try root.unbox(value, as: T.self, key: nil)
    }
}
