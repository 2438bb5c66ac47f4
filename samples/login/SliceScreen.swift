import Rewind

/// A screen of `Module` shown on a slice of the app store rather than on a store of its own, so that its state
/// is part of the app state: recorded, redacted and time-travelled with everything else. Keyed like the module's
/// own factory (`LoginModule`).
///
/// Threading: `build` runs on the main actor.
struct SliceScreen<Module: TextScreenModule>: Screen {
    /// The module's slice of the app store.
    let store: StoreProjection<Module.State, Module.Action>

    var name: String {
        String(describing: Module.self)
    }

    func build(navigator: ScreenNavigator) -> TextScreen {
        TextScreen(store: store) { Module.render($0) }
    }
}
