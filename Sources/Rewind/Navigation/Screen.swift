/// A factory that builds a screen and returns its container — whatever the app renders into (a view model, a
/// terminal view, a platform view controller). The factory is the screen's external entry point, so it is called
/// the screen.
///
/// External parameters of the screen are the factory's properties:
///
/// ```swift
/// struct ChatScreen: Screen {
///     let chatID: Int
///     var traits: Set<AnyHashable> { [chatID] }          // chat screens with different ids are different screens
///     func build(navigator: ScreenNavigator) -> ChatView { ChatView(chatID: chatID) }
/// }
/// ChatScreen(chatID: 1).key == ChatScreen(chatID: 2).key   // false
/// ```
///
/// ``name`` (default: the type name) and ``traits`` (default: none) form the screen's ``key``. A container type
/// that is its own factory gets `build` for free (it returns `self`).
///
/// Threading: `build` runs on the main actor; `name`, `traits` and `key` are plain values.
public protocol Screen<Container>: CustomStringConvertible {
    /// What `build` returns.
    associatedtype Container

    /// The screen's name. Default: the type name.
    var name: String { get }

    /// Traits that tell apart screens with the same name. Default: none.
    var traits: Set<AnyHashable> { get }

    /// Builds the screen. `navigator` is what the screen uses for its own navigation.
    @MainActor func build(navigator: ScreenNavigator) -> Container
}

extension Screen {
    /// The type name, e.g. `"ChatScreen"`.
    public var name: String { String(describing: Self.self) }

    /// No traits.
    public var traits: Set<AnyHashable> { [] }

    /// The key made of ``name`` and ``traits``, used to find the screen in a ``NavigationState``.
    public var key: ScreenKey { ScreenKey(name: name, traits: traits) }

    /// The key's description, e.g. `ChatScreen[1]`.
    public var description: String { key.description }

    /// Wraps this screen in a type eraser, hiding its concrete type behind ``AnyScreen``.
    public func eraseToAnyScreen() -> AnyScreen<Container> {
        AnyScreen(self)
    }

    /// This screen with its container decorated by `decorator`; the key stays the same.
    public func decorated<Decorator: ScreenDecorator>(
        by decorator: Decorator
    ) -> AnyScreen<Decorator.Output> where Decorator.Container == Container {
        AnyScreen(DecoratedScreen(screen: self, decorator: decorator))
    }
}

extension Screen where Container == Self {
    /// A container that is its own factory returns itself.
    @MainActor
    public func build(navigator: ScreenNavigator) -> Self {
        self
    }
}
