/// Where in the source code an action was dispatched: the `#fileID` and `#line` of the `dispatch` call.
///
/// Every dispatched action carries one (see ``DispatchedAction``) so that tooling such as the inspector can show
/// where an action came from. Creating one from a `StaticString` (what `dispatch` does) copies no characters: the
/// text is materialised only when ``file`` is read, so dispatching stays allocation-free.
///
/// Threading: an immutable value; `Sendable`, usable from any thread.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    @usableFromInline
    enum Storage: Sendable {
        case literal(StaticString)
        case text(String)
    }

    @usableFromInline
    let storage: Storage

    /// The line of the dispatch call.
    public let line: UInt

    /// The file identifier of the dispatch call, e.g. `"MyApp/Counter.swift"`.
    public var file: String {
        switch storage {
        case .literal(let literal): return literal.description
        case .text(let text): return text
        }
    }

    /// Creates a location from text (for example one decoded from the wire).
    public init(file: String, line: UInt) {
        self.storage = .text(file)
        self.line = line
    }

    /// Creates a location from the compile-time literals `#fileID` and `#line`, without copying the text.
    @inlinable
    public init(file: StaticString, line: UInt) {
        self.storage = .literal(file)
        self.line = line
    }

    /// `file:line`, e.g. `MyApp/Counter.swift:12`.
    public var description: String { "\(file):\(line)" }

    /// Same file text and line (literal locations compare by pointer first).
    public static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        guard lhs.line == rhs.line else { return false }
        switch (lhs.storage, rhs.storage) {
        case (.literal(let a), .literal(let b)) where a.hasPointerRepresentation && b.hasPointerRepresentation
            && a.utf8Start == b.utf8Start && a.utf8CodeUnitCount == b.utf8CodeUnitCount:
            return true
        default:
            return lhs.file == rhs.file
        }
    }

    /// Hashes the file text and line.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
    }

    private enum CodingKeys: String, CodingKey { case file, line }

    /// Decodes `{"file": String, "line": UInt}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(file: try container.decode(String.self, forKey: .file),
                  line: try container.decode(UInt.self, forKey: .line))
    }

    /// Encodes `{"file": String, "line": UInt}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
    }
}
