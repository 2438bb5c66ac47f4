/// A ``StoreModule`` that is shown as a screen: its store plus what the screen renders into (``Rendering``) — a view
/// model, a terminal view, a platform view; Rewind does not care.
///
/// A module defines its logic (``reducer(output:)``; not needed when it has no actions) and how to build its screen
/// from its store (``createScreen(with:)-(ModuleStore<Self>)``). Clients then create screens with
/// `createScreen(with: initialState)`, or `createScreen()` when the state is ``DefaultInitializable``; it is common
/// to add your own shortcuts:
///
/// ```swift
/// extension LoginModule {
///     static func createScreen(username: String) -> ModuleScreen<LoginModule> {
///         createScreen(with: State(username: username, message: "Welcome back"))
///     }
/// }
/// ```
///
/// Threading: main actor. A conforming module is main-actor isolated (so are its shortcuts like the one above);
/// its nested value types are not.
@MainActor
public protocol ScreenModule: StoreModule {
    /// What the screen renders into.
    associatedtype Rendering

    /// The module's logic, given the emitter of its outputs. Default for modules without actions: no logic.
    static func reducer(output: OutputEmitter<Action, Output>) -> Reducer<State, Action>

    /// Builds the screen for `store`: typically creates the rendering and subscribes it to the store. The one
    /// requirement with no default.
    static func createScreen(with store: ModuleStore<Self>) -> ModuleScreen<Self>
}

extension ScreenModule where Action == NoAction {
    /// A module without actions has no logic.
    public static func reducer(output: OutputEmitter<Action, Output>) -> Reducer<State, Action> {
        .empty
    }
}

extension ScreenModule {
    /// Creates a screen starting from `initialState`.
    public static func createScreen(
        with initialState: State,
        interpreter: Interpreter = .none,
        middleware: [Middleware<State, Action>] = [],
        configuration: StoreConfiguration = StoreConfiguration()
    ) -> ModuleScreen<Self> {
        let store = ModuleStore<Self>(
            initialState: initialState,
            reducer: { output in reducer(output: output) },
            interpreter: interpreter,
            middleware: middleware,
            configuration: configuration
        )
        return createScreen(with: store)
    }

    /// A ``Screen`` factory for this module (for a ``ScreenNavigator``): named after the module, with `traits`,
    /// building `createScreen(with: initialState)`.
    public static func screen(with initialState: State, traits: Set<AnyHashable> = []) -> ModuleScreenFactory<Self> {
        ModuleScreenFactory(initialState: initialState, traits: traits)
    }
}

extension ScreenModule where State: DefaultInitializable {
    /// Creates a screen starting from `State()`.
    public static func createScreen() -> ModuleScreen<Self> {
        createScreen(with: State())
    }

    /// A ``Screen`` factory for this module starting from `State()`.
    public static func screen(traits: Set<AnyHashable> = []) -> ModuleScreenFactory<Self> {
        ModuleScreenFactory(initialState: State(), traits: traits)
    }
}
