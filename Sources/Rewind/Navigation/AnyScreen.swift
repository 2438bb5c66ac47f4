/// A type-erased ``Screen``: exposes only the container type, so the concrete factory can change without
/// affecting clients. Keeps the wrapped screen's ``name``, ``traits`` and description.
///
/// Threading: a value; `build` runs on the main actor.
public struct AnyScreen<Container>: Screen {
    private enum Base {
        case screen(any Screen<Container>)
        case function(@MainActor (ScreenNavigator) -> Container)
    }

    private let base: Base

    /// The wrapped screen's name.
    public let name: String
    /// The wrapped screen's traits.
    public let traits: Set<AnyHashable>
    /// The wrapped screen's description.
    public let description: String

    /// Wraps `screen`.
    public init<Wrapped: Screen>(_ screen: Wrapped) where Wrapped.Container == Container {
        if let erased = screen as? AnyScreen<Container> {
            self = erased
            return
        }
        self.base = .screen(screen)
        self.name = screen.name
        self.traits = screen.traits
        self.description = screen.description
    }

    /// A screen built by a function.
    public init(
        name: String,
        traits: Set<AnyHashable> = [],
        build: @escaping @MainActor (ScreenNavigator) -> Container
    ) {
        self.base = .function(build)
        self.name = name
        self.traits = traits
        self.description = ScreenKey(name: name, traits: traits).description
    }

    /// Builds the wrapped screen.
    @MainActor
    public func build(navigator: ScreenNavigator) -> Container {
        switch base {
        case .screen(let screen): return screen.build(navigator: navigator)
        case .function(let build): return build(navigator)
        }
    }
}
