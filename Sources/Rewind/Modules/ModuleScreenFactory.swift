/// The ``Screen`` factory of a ``ScreenModule`` (see ``ScreenModule/screen(with:traits:)``): named after the
/// module, it builds `Module.createScreen(with: initialState)`.
///
/// Threading: a value; `build` runs on the main actor.
public struct ModuleScreenFactory<Module: ScreenModule>: Screen {
    /// The state the built screen starts from.
    public let initialState: Module.State
    /// Traits that tell apart screens of this module.
    public let traits: Set<AnyHashable>

    /// A factory for a screen of `Module` starting from `initialState`.
    public init(initialState: Module.State, traits: Set<AnyHashable> = []) {
        self.initialState = initialState
        self.traits = traits
    }

    /// The module's type name.
    public var name: String { String(describing: Module.self) }

    /// Builds the module's screen.
    @MainActor
    public func build(navigator: ScreenNavigator) -> ModuleScreen<Module> {
        Module.createScreen(with: initialState)
    }
}
