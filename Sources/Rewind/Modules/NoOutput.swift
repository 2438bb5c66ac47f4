/// The output type of a module that emits nothing (the default ``StoreModule/Output``); it has no values.
///
/// It is `Codable` so that modules without outputs still serialise for inspection: there is nothing to encode, and
/// decoding always fails.
///
/// Threading: uninhabited; `Sendable`.
public enum NoOutput: Hashable, Codable, Sendable {
    /// Always throws: there is no output to decode.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "NoOutput has no values."
        ))
    }

    /// Unreachable: there is no value to encode.
    public func encode(to encoder: any Encoder) throws {}
}
