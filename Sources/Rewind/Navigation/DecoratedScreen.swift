/// A screen whose container is decorated; returned (erased) by ``Screen/decorated(by:)``. Same key as the wrapped
/// screen.
///
/// Threading: a value; `build` runs on the main actor.
struct DecoratedScreen<Wrapped: Screen, Decorator: ScreenDecorator>: Screen
where Decorator.Container == Wrapped.Container {
    let screen: Wrapped
    let decorator: Decorator

    var name: String { screen.name }
    var traits: Set<AnyHashable> { screen.traits }
    var description: String { "\(screen.description) decorated by \(decorator.description)" }

    @MainActor
    func build(navigator: ScreenNavigator) -> Decorator.Output {
        decorator.build(screen: screen, navigator: navigator)
    }
}
