/// The envelope every message shares: a JSON object with a string `"type"`, and optionally a `"protocol"`
/// version that must not exceed ``WireProtocol/version``.
///
/// Threading: stateless.
enum WireEnvelope {
    /// The message type and a reader for its fields (paths start with the type name: `action.seq`).
    static func open(_ json: JSONValue) throws(WireError) -> (String, WireFields) {
        guard case .object(let object) = json else {
            throw WireError(code: .badJSON, message: "a message must be a JSON object, not \(json.kindNameWithArticle)")
        }
        guard let typeValue = object["type"] else { throw WireFields.missingField("type") }
        guard case .string(let type) = typeValue else {
            throw WireFields.badField("type", "expected a string, found \(typeValue.kindName)")
        }
        if let version = object["protocol"]?.int64Value, version > Int64(WireProtocol.version) {
            throw WireError(code: .unsupportedProtocol,
                            message: "\(type) announces protocol \(version); this side supports up to \(WireProtocol.version)")
        }
        return (type, WireFields(object, path: type))
    }

    static func unknownType(_ type: String, expecting: String) -> WireError {
        WireError(code: .unknownType, message: "unknown message type \"\(type)\" (expected \(expecting))")
    }
}
