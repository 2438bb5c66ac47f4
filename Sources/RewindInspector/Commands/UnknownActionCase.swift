import RewindWire

/// The answer to a dispatched action whose object names no case of the app's action type (`{"ad":{"_0":5}}` for
/// `add`): a Swift enum's synthesized `Decodable` only says "Invalid number of keys found, expected one", which
/// names neither the problem nor the shape expected.
///
/// Threading: pure functions.
enum UnknownActionCase {
    /// The words of the synthesized enum decoding error that means "no member names a case, or several do".
    static let enumKeyCountError = "Invalid number of keys found"

    /// The sentence for `action`, refused with `error` by the decoder of `actionType`, when `error` is a Swift
    /// enum's "Invalid number of keys found" at the top level: says the action was not understood, names the members
    /// that are not cases, and the shape an action of an enum has. Nil for any other error.
    static func message(for action: JSONValue, error: any Error, actionType: Any.Type) -> String? {
        guard case .object(let object) = action,
              case DecodingError.typeMismatch(_, let context)? = error as? DecodingError,
              context.codingPath.isEmpty, context.debugDescription.hasPrefix(enumKeyCountError) else { return nil }
        let names = (0..<object.count).map { JSONValue.string(object[$0].0).serialized() }
        let type = String(describing: actionType)
        let shape = "an action is an object with exactly one member, named after one of the cases of \(type), e.g. "
            + #"{"someCase":{}}, or {"someCase":{"_0":…}} for a case with a value"#
        let what: String
        switch names.count {
        case 0: what = "the object names no case"
        case 1: what = "\(names[0]) is not a case of \(type)"
        default: what = "none of its members (\(names.joined(separator: ", "))) is a case of \(type)"
        }
        return "the app did not understand the action: \(what) (\(shape))"
    }
}
