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
    /// The most values a document may hold (every scalar, array and object counts one). A parsed value takes
    /// 32 bytes whatever its text (`[]` is 2 bytes of text), so without this bound a document of empty arrays
    /// costs about 11 times its size. Unless set, one value per 16 bytes of ``maxBytes`` and at least 65,536:
    /// 4,194,304 values (128 MiB of parsed values) for 64 MiB. A document with more fails with `tooBig`.
    public var maxValues: Int {
        get { explicitMaxValues ?? max(1 << 16, maxBytes / 16) }
        set { explicitMaxValues = newValue }
    }
    private var explicitMaxValues: Int?
    /// When true, a `\u` escape of a surrogate (U+D800…U+DFFF) that is not half of a pair is read as U+FFFD
    /// (the replacement character) instead of failing the parse. JavaScript strings can hold such lone
    /// surrogates and `JSON.stringify` writes them as escapes, so files written by JavaScript tools (Redux
    /// DevTools) carry them. Default false: RFC 8259 text, as the wire protocol requires. Raw UTF-8 that encodes a
    /// surrogate stays invalid either way. ``JSONValue/init(parsing:limits:replacedSurrogates:)`` counts them.
    public var replacesLoneSurrogates = false

    /// Limits with the given values (`maxValues` nil: derived from `maxBytes`, see ``maxValues``).
    public init(maxDepth: Int = 512, maxBytes: Int = 64 << 20, maxValues: Int? = nil) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.explicitMaxValues = maxValues
    }

    /// Depth 512, 64 MiB, 4,194,304 values.
    public static let `default` = JSONLimits()
}
