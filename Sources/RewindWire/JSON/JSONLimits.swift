/// Limits the parser (and the checked serializer) enforce, so that hostile or runaway input is a clear error
/// rather than a crash, a stack overflow or unbounded memory use.
///
/// Threading: a value type; safe to share.
public struct JSONLimits: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted; the top-level container is depth 1.
    /// Default 512. The parser is iterative, so any value is safe for parsing itself; keep it modest anyway,
    /// because other recursive work on a value (comparison, serialization, deallocation) recurses once per level.
    public var maxDepth: Int
    /// The largest document accepted, in bytes of UTF-8. Default 64 MiB.
    public var maxBytes: Int

    /// Limits with the given values.
    public init(maxDepth: Int = 512, maxBytes: Int = 64 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    /// Depth 512, 64 MiB.
    public static let `default` = JSONLimits()
}
