/// An open prompt on the bottom line: the `/` filter, the `:` go-to field or the `d` dispatch field. A plain value
/// type.
package struct PromptState: Sendable, Hashable {
    /// What the prompt asks for.
    package enum Kind: Sendable, Hashable {
        /// A regular expression for the label filter (`/`).
        case filter
        /// An action as JSON to dispatch into the app (`d`).
        case dispatch
        /// An event number, a time or a percentage to move the selection to (`:`); see `GoToTarget`.
        case goTo
    }

    /// What the prompt asks for.
    package var kind: Kind
    /// The text being edited.
    package var editor: LineEditor
    /// Why the last Enter was refused (bad regex, bad JSON); shown beside the prompt.
    package var error: String?
    /// Earlier entries of this prompt, oldest first, that Up and Down recall (the `/` prompt's past searches).
    package private(set) var history: [String]
    /// Which entry of `history` the editor shows; nil while it shows what the user is typing.
    package private(set) var historyPosition: Int?
    /// What the user had typed before recalling an entry, given back when Down goes past the newest one.
    private var draft = ""

    /// A prompt of `kind` prefilled with `text`, whose Up and Down recall `history` (oldest first).
    package init(kind: Kind, text: String = "", error: String? = nil, history: [String] = []) {
        self.kind = kind
        editor = LineEditor(text)
        self.error = error
        self.history = history
    }

    /// Up (`older`) or Down in the prompt, as in a shell or vim's `/`: shows the previous or next entry of `history`;
    /// Down past the newest gives back what was being typed. Returns false when there is nothing to move to.
    package mutating func recall(older: Bool) -> Bool {
        let position: Int?
        switch (historyPosition, older) {
        case (nil, true):
            guard !history.isEmpty else { return false }
            draft = editor.text
            position = history.count - 1
        case (nil, false):
            return false
        case (let current?, true):
            guard current > 0 else { return false }
            position = current - 1
        case (let current?, false):
            position = current + 1 < history.count ? current + 1 : nil
        }
        historyPosition = position
        editor = LineEditor(position.map { history[$0] } ?? draft)
        error = nil
        return true
    }

    /// The label shown before the text: `/`, `go to: ` or `dispatch JSON: `.
    package var label: String {
        switch kind {
        case .filter: return "/"
        case .dispatch: return "dispatch JSON: "
        case .goTo: return "go to (1234, +12.5s, 14:03:12, 50%): "
        }
    }
}
