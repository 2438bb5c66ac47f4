import Rewind

/// A ``ScreenModule`` whose screen is text rendered from its state: it only says how (``render(_:)``), and gets
/// `createScreen(with:)` on its own store, and ``SliceScreen`` on a slice of the app store.
///
/// Threading: main actor.
@MainActor
protocol TextScreenModule: ScreenModule where Rendering == TextScreen {
    /// The screen's lines for `state`.
    static func render(_ state: State) -> [String]
}

extension TextScreenModule {
    /// The module's screen on a store of its own.
    static func createScreen(with store: ModuleStore<Self>) -> ModuleScreen<Self> {
        ModuleScreen(store, TextScreen(store: store) { render($0) })
    }
}
