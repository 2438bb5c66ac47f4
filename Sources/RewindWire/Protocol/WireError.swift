/// A protocol error: a stable ``code`` and a human-readable ``message``. Thrown by the decoders and carried
/// by `error` messages.
///
/// Threading: a value type; safe to share.
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable code.
    public let code: WireErrorCode
    /// What went wrong, for people. For `missing_field` and `bad_field` it starts with the field's path
    /// (`action.seq`, `batch.events[2].patch`).
    public let message: String
    /// The path of the field concerned, for `missing_field` and `bad_field` (e.g. `action.seq`); else `nil`.
    public let field: String?

    /// An error with a code and a message.
    public init(code: WireErrorCode, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// `<code>: <message>`, e.g. `missing_field: action.seq`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// The protocol error matching a JSON parse failure (`bad_json`, `bad_utf8`, `too_deep` or `too_big`).
    public init(_ parseError: JSONParseError) {
        let code: WireErrorCode
        switch parseError.kind {
        case .syntax: code = .badJSON
        case .invalidUTF8: code = .badUTF8
        case .tooDeep: code = .tooDeep
        case .tooBig: code = .tooBig
        }
        self.init(code: code, message: parseError.description)
    }

    /// The JSON form used inside messages: `{"code": …, "message": …, "field"?: …}`.
    public var json: JSONValue {
        var o = JSONObject()
        o["code"] = .string(code.rawValue)
        o["message"] = .string(message)
        if let field { o["field"] = .string(field) }
        return .object(o)
    }

    /// Reads the JSON form. An unknown code string becomes ``WireErrorCode/internal`` (the text is kept in the
    /// message), so that newer peers' codes do not make the message unreadable.
    init(reading fields: WireFields) throws(WireError) {
        let codeText = try fields.string("code")
        let message = try fields.optionalString("message") ?? ""
        if let code = WireErrorCode(rawValue: codeText) {
            self.init(code: code, message: message, field: try fields.optionalString("field"))
        } else {
            self.init(code: .internal, message: "\(codeText): \(message)", field: try fields.optionalString("field"))
        }
    }
}
