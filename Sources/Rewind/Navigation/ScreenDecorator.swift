/// Changes what a screen builds — wraps its container in another one, configures it — without changing the
/// screen's key. Apply it with ``Screen/decorated(by:)``.
///
/// Threading: `build` runs on the main actor.
public protocol ScreenDecorator<Container, Output>: CustomStringConvertible {
    /// The container of the screens this decorator accepts.
    associatedtype Container
    /// The container the decorated screen builds.
    associatedtype Output

    /// Builds `screen` and decorates its container.
    @MainActor func build<Wrapped: Screen>(screen: Wrapped, navigator: ScreenNavigator) -> Output
        where Wrapped.Container == Container
}

extension ScreenDecorator {
    /// The type name.
    public var description: String { String(describing: Self.self) }
}
