import RewindWire

/// One line of the detail pane's content.
///
/// State-tree lines name their node (`path`, a JSON Pointer) so that the controller can collapse or expand
/// the node under the cursor. A plain value type.
public struct DetailLine: Sendable, Hashable {
    /// Leading indentation, in columns.
    public var indent: Int
    /// The text, in styled runs.
    public var spans: [TextSpan]
    /// The JSON Pointer of the state-tree node this line shows (nil elsewhere).
    public var path: String?
    /// Whether the node is an object or array that can be collapsed or expanded.
    public var isContainer: Bool
    /// Whether that container is currently expanded.
    public var isExpanded: Bool
    /// Whether this is the "… N more" line of the container at `path`, which Enter extends.
    public var isMore: Bool
    /// The whole value the line shows (cut), when it is not simply the value at `path` of the event's state or
    /// action: a Diff-tab line's new (or removed) value. Nil elsewhere.
    public var value: JSONValue?

    /// Creates a line.
    public init(
        indent: Int = 0, _ spans: [TextSpan], path: String? = nil, isContainer: Bool = false,
        isExpanded: Bool = false, isMore: Bool = false, value: JSONValue? = nil
    ) {
        self.indent = indent
        self.spans = spans
        self.path = path
        self.isContainer = isContainer
        self.isExpanded = isExpanded
        self.isMore = isMore
        self.value = value
    }

    /// The line as plain text (indentation included), for tests.
    public var text: String {
        String(repeating: " ", count: indent) + spans.map(\.text).joined()
    }
}
