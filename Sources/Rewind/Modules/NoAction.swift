/// The action type of a module that handles no actions (the default ``StoreModule/Action``); it has no values.
///
/// It is `Codable` so that modules without actions still serialise for inspection: there is nothing to encode, and
/// decoding always fails.
///
/// Threading: uninhabited; `Sendable`.
public enum NoAction: Hashable, Codable, Sendable {
    /// Always throws: there is no action to decode.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "NoAction has no values."
        ))
    }

    /// Unreachable: there is no value to encode.
    public func encode(to encoder: any Encoder) throws {}
}
