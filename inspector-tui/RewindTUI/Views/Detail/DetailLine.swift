import RewindWire

/// One line of the detail pane's content.
///
/// State-tree lines name their node (`path`, a JSON Pointer) so that the controller can collapse or expand
/// the node under the cursor. A plain value type.
package struct DetailLine: Sendable, Hashable {
    /// Leading indentation, in columns.
    package var indent: Int
    /// The text, in styled runs.
    package var spans: [TextSpan]
    /// The JSON Pointer of the state-tree node this line shows (nil elsewhere).
    package var path: String?
    /// Whether the node is an object or array that can be collapsed or expanded.
    package var isContainer: Bool
    /// Whether that container is currently expanded.
    package var isExpanded: Bool
    /// Whether this is the "… N more" line of the container at `path`, which Enter extends.
    package var isMore: Bool
    /// The whole value the line shows (cut), when it is not simply the value at `path` of the event's state or
    /// action: a Diff-tab line's new (or removed) value. Nil elsewhere.
    package var value: JSONValue?

    /// Creates a line.
    package init(
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
    package var text: String {
        String(repeating: " ", count: indent) + spans.map(\.text).joined()
    }
}
