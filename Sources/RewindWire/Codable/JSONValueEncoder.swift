import Foundation

/// Encodes `Encodable` values straight into a ``JSONValue`` tree, with no JSON text in between.
///
/// The result is what `JSONEncoder` would produce, parsed back, with these rules:
/// - `Int`, `Int8…Int64`, `UInt8…UInt32` → `.int`. `UInt`/`UInt64` → `.int` when ≤ `Int64.max`; larger values
///   **throw** `EncodingError.invalidValue` (no silent precision loss).
/// - `Double` → `.double`; `Float` → `.double` of its shortest decimal form (`Float(0.1)` → `0.1`).
///   Non-finite values (NaN, ±infinity) throw `EncodingError.invalidValue`.
/// - `Decimal` → `.int` when integral and within `Int64`, else `.double`.
/// - `Date` → seconds since 1970-01-01T00:00:00Z as `.double`. `Data` → base64 `.string`. `URL` → its
///   absolute string.
/// - `JSONValue` and `JSONObject` are inserted as they are.
/// - Structs and classes → `.object` with keys in encoding order (the declaration order for synthesized
///   conformances); enums with associated values → Swift's synthesized keyed form
///   (`{"add": {"title": "x"}}`, `{"increment": {}}`); `nil` optionals in keyed containers are omitted
///   (`encodeIfPresent`), as with `JSONEncoder`; explicit `encodeNil` writes `null`.
/// - `[String: V]` → `.object` (in the dictionary's iteration order); dictionaries with other key types
///   follow Swift's default (`Int` keys become string keys, others an array of alternating keys and values).
/// - A value that encodes nothing → `{}`.
///
/// Threading: the encoder is an immutable value; each `encode` call uses its own state, so one encoder may be
/// used from several threads at once.
public struct JSONValueEncoder: Sendable {
    /// Passed to the values' `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// How object keys are written: as encoded (the default), or with `@Observable`-style storage read as the
    /// properties it stands for (``KeyStyle/observationStorage``).
    public var keyStyle: KeyStyle

    /// An encoder with no user info, writing keys in `keyStyle`.
    public init(keyStyle: KeyStyle = .asEncoded) {
        userInfo = [:]
        self.keyStyle = keyStyle
    }

    /// Encodes `value` into a JSON value. Throws `EncodingError` for the values listed in the type's
    /// documentation, or whatever the value's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = ValueEncoder(parent: nil, key: nil, userInfo: userInfo, keyStyle: keyStyle)
        return try root.box(value, key: nil)
    }

    /// Encodes `value` like ``encode(_:)``, consulting `memo` for the values it handles (see
    /// ``JSONValueEncodingMemo``). The result is what ``encode(_:)`` returns as long as the memo answers correctly.
    public func encode<T: Encodable>(_ value: T, memo: any JSONValueEncodingMemo) throws -> JSONValue {
        let root = ValueEncoder(parent: nil, key: nil, userInfo: userInfo, keyStyle: keyStyle, memo: memo)
        return try root.box(value, key: nil)
    }

    /// Encodes `value` like ``encode(_:memo:)``, with the encoders `workspace` kept from its earlier encodings (with
    /// `memo` and this encoder's settings): the object layouts they learnt are followed again (each struct's keys,
    /// in order, without a duplicate-key search), and nothing is allocated for them. After an error, the workspace
    /// starts afresh.
    public func encode<T: Encodable>(_ value: T, memo: any JSONValueEncodingMemo,
                                     reusing workspace: JSONValueEncoderWorkspace) throws -> JSONValue {
        let root: ValueEncoder
        if let kept = workspace.root, kept.memo === memo, kept.keyStyle == keyStyle {
            root = kept
        } else {
            root = ValueEncoder(parent: nil, key: nil, userInfo: userInfo, keyStyle: keyStyle, memo: memo)
        }
        workspace.root = nil
        let result = try root.box(value, key: nil)
        workspace.root = root
        return result
    }
}
