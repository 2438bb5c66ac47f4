/// A ``ScreenDecorator`` made from a function of the built container.
///
/// ```swift
/// let framed = AnyScreenDecorator<TextView, FramedView>(description: "framed") { view, _ in FramedView(view) }
/// let screen = ChatScreen(chatID: 1).decorated(by: framed)
/// ```
///
/// Threading: a value; the function runs on the main actor.
public struct AnyScreenDecorator<Container, Output>: ScreenDecorator {
    private let decorate: @MainActor (Container, ScreenNavigator) -> Output

    /// Describes the decorator in a decorated screen's description.
    public let description: String

    /// A decorator that passes the built container, and the navigator, to `decorate`.
    public init(
        description: String = "AnyScreenDecorator",
        _ decorate: @escaping @MainActor (Container, ScreenNavigator) -> Output
    ) {
        self.description = description
        self.decorate = decorate
    }

    /// Builds `screen` and passes its container to the function.
    @MainActor
    public func build<Wrapped: Screen>(screen: Wrapped, navigator: ScreenNavigator) -> Output
        where Wrapped.Container == Container {
        decorate(screen.build(navigator: navigator), navigator)
    }
}
