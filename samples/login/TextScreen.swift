import Rewind

/// What the sample's screens render into: lines of text, kept up to date from a store (a terminal app's stand-in
/// for a view). The `show` command prints the visible one.
///
/// Threading: main actor.
@MainActor
final class TextScreen {
    /// The screen as text, one line per row.
    private(set) var lines: [String]

    /// A screen showing `render(state)` for the current state of `store`, and again after every change, for as
    /// long as the screen exists.
    init<Source: StoreType>(store: Source, render: @escaping @MainActor (Source.State) -> [String]) {
        lines = render(store.state)
        store.subscribe(self) { screen, state in screen.lines = render(state) }
    }

    /// A screen showing fixed `lines`.
    init(lines: [String]) {
        self.lines = lines
    }
}
