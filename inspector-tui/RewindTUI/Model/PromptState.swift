/// An open prompt on the bottom line: the `/` filter, the `:` go-to field or the `d` dispatch field. A plain value
/// type.
public struct PromptState: Sendable, Hashable {
    /// What the prompt asks for.
    public enum Kind: Sendable, Hashable {
        /// A regular expression for the label filter (`/`).
        case filter
        /// An action as JSON to dispatch into the app (`d`).
        case dispatch
        /// An event number, a time or a percentage to move the selection to (`:`); see `GoToTarget`.
        case goTo
    }

    /// What the prompt asks for.
    public var kind: Kind
    /// The text being edited.
    public var editor: LineEditor
    /// Why the last Enter was refused (bad regex, bad JSON); shown beside the prompt.
    public var error: String?

    /// A prompt of `kind` prefilled with `text`.
    public init(kind: Kind, text: String = "", error: String? = nil) {
        self.kind = kind
        editor = LineEditor(text)
        self.error = error
    }

    /// The label shown before the text: `/`, `go to: ` or `dispatch JSON: `.
    public var label: String {
        switch kind {
        case .filter: return "/"
        case .dispatch: return "dispatch JSON: "
        case .goTo: return "go to (1234, +12.5s, 14:03:12, 50%): "
        }
    }
}
