/// Every key of the timeline with what it does: the help overlay lists them all, the footer the ones that
/// apply in the focused pane. Immutable constants: safe from any thread.
public enum KeyBindings {
    /// One key (or several equivalent keys) and its effect.
    public struct Binding: Sendable, Hashable {
        /// How the keys are written: `↑↓ j k`.
        public let keys: String
        /// What they do: `move`.
        public let action: String

        /// Creates a binding.
        public init(_ keys: String, _ action: String) {
            self.keys = keys
            self.action = action
        }
    }

    /// A titled group of bindings in the help overlay.
    public struct Section: Sendable, Hashable {
        /// The group's title.
        public let title: String
        /// Its bindings.
        public let bindings: [Binding]
    }

    /// Everything, for the `?` overlay.
    public static let help: [Section] = [
        Section(title: "Move", bindings: [
            Binding("↑ ↓  k j", "previous / next row"),
            Binding("PgUp PgDn", "page up / down"),
            Binding("^B ^F ^U ^D", "page / half page"),
            Binding("g G Home End", "first / last (follows)"),
            Binding("Tab S-Tab", "next / previous pane"),
        ]),
        Section(title: "Events", bindings: [
            Binding("Enter", "jump app to this state"),
            Binding("< >  , .", "step back/fwd + jump"),
            Binding("s", "skip / un-skip action"),
            Binding("r", "replay from here"),
            Binding("d", "dispatch action (JSON)"),
            Binding("e", "export the session"),
        ]),
        Section(title: "View", bindings: [
            Binding("/", "filter labels (regex)"),
            Binding("n N", "next / previous match"),
            Binding("Esc", "clear the filter"),
            Binding("f", "follow live events"),
            Binding("p", "pause / resume live"),
            Binding("t", "relative / clock time"),
            Binding("[ ]  1 2 3", "Action Diff State tab"),
            Binding("Enter ← →", "fold the state tree"),
        ]),
        Section(title: "Other", bindings: [
            Binding("?  F1", "this help"),
            Binding("^L", "redraw the screen"),
            Binding("q  ^C", "quit (asks if apps on)"),
        ]),
    ]

    /// The hints always shown at the right end of the footer when no dialog is open.
    public static let footerTail = [Binding("?", "help"), Binding("q", "quit")]

    /// The footer's hints for the focused pane (or the open dialog), without `footerTail`.
    public static func footer(for model: TimelineModel) -> [Binding] {
        switch model.dialog {
        case .help:
            return [Binding("any key", "closes the help")]
        case .confirmQuit:
            return [Binding("y", "quit"), Binding("n Esc", "stay")]
        case .prompt(let prompt):
            switch prompt.kind {
            case .filter:
                return [Binding("Enter", "apply (empty clears)"), Binding("Esc", "cancel"), Binding("^U", "clear")]
            case .dispatch:
                return [Binding("Enter", "dispatch"), Binding("Esc", "cancel"), Binding("^U", "clear")]
            }
        case nil:
            break
        }
        switch model.focus {
        case .sessions:
            return [Binding("↑↓", "select"), Binding("Enter", "open"), Binding("e", "export"), Binding("Tab", "pane")]
        case .timeline:
            return [
                Binding("↑↓", "move"), Binding("Enter", "jump"), Binding("< >", "step"), Binding("p", "pause"),
                Binding("s", "skip"), Binding("r", "replay"), Binding("d", "dispatch"), Binding("/", "filter"), Binding("n/N", "match"), Binding("f", "follow"),
                Binding("t", "time"), Binding("e", "export"), Binding("Tab", "pane"),
            ]
        case .detail:
            var bindings = [Binding("↑↓", "move"), Binding("[ ]", "tab")]
            if model.detailTab == .state {
                bindings += [Binding("Enter", "fold"), Binding("← →", "collapse/expand")]
            }
            return bindings + [Binding("Tab", "pane")]
        }
    }
}
