/// Navigates between screens by dispatching ``NavigationAction``s into a store of ``NavigationState`` (typically a
/// projection of the app store), and keeps the containers built for the screens that state shows.
///
/// `push`, `present` and `setRoot` build the screen, remember its container and factory under the screen's key, and
/// dispatch the action. When the state drops a key (pop, dismiss, time travel), its container is released; when a
/// key comes back (time travel), ``container(for:)`` rebuilds it from the remembered factory.
///
/// ```swift
/// let navigator = ScreenNavigator(store: appStore.projection(action: { .navigation($0) }, state: \.navigationState))
/// let chat = navigator.push(ChatScreen(chatID: 1))     // the built container
/// navigator.pop()
/// ```
///
/// Threading: main actor.
@MainActor
public final class ScreenNavigator {
    private let store: any StoreType<NavigationState, NavigationAction>
    private var factories: [ScreenKey: AnyScreen<Any>] = [:]
    private var containers: [ScreenKey: Any] = [:]

    /// A navigator driving `store`.
    public init<Navigation: StoreType>(store: Navigation)
    where Navigation.State == NavigationState, Navigation.Action == NavigationAction {
        self.store = store
        store.subscribe(self, to: { Set($0.allKeys) }) { navigator, keys in
            navigator.keep(only: keys)
        }
    }

    /// The navigation state it drives.
    public var state: NavigationState {
        store.state
    }

    /// Builds `screen`, pushes it onto the topmost stack and returns its container.
    @discardableResult
    public func push<S: Screen>(_ screen: S, file: StaticString = #fileID, line: UInt = #line) -> S.Container {
        show(screen, action: .push(screen.key), source: SourceLocation(file: file, line: line))
    }

    /// Builds `screen`, presents it modally and returns its container.
    @discardableResult
    public func present<S: Screen>(_ screen: S, file: StaticString = #fileID, line: UInt = #line) -> S.Container {
        show(screen, action: .present(screen.key), source: SourceLocation(file: file, line: line))
    }

    /// Builds `screen`, makes it the only screen and returns its container.
    @discardableResult
    public func setRoot<S: Screen>(_ screen: S, file: StaticString = #fileID, line: UInt = #line) -> S.Container {
        show(screen, action: .setRoot(screen.key), source: SourceLocation(file: file, line: line))
    }

    /// Pops the topmost stack.
    public func pop(file: StaticString = #fileID, line: UInt = #line) {
        store.dispatch(.pop, source: SourceLocation(file: file, line: line))
    }

    /// Pops the topmost stack to its root.
    public func popToRoot(file: StaticString = #fileID, line: UInt = #line) {
        store.dispatch(.popToRoot, source: SourceLocation(file: file, line: line))
    }

    /// Dismisses the topmost modal stack.
    public func dismiss(file: StaticString = #fileID, line: UInt = #line) {
        store.dispatch(.dismiss, source: SourceLocation(file: file, line: line))
    }

    /// The container of the screen with `key`, if the state shows it: the one built when it was shown, or a new
    /// one built from its remembered factory (after time travel). Nil for keys the state does not show, or whose
    /// factory this navigator never saw.
    public func container(for key: ScreenKey) -> Any? {
        guard Set(store.state.allKeys).contains(key) else { return nil }
        if let container = containers[key] {
            return container
        }
        guard let factory = factories[key] else { return nil }
        let container = factory.build(navigator: self)
        containers[key] = container
        return container
    }

    /// The container of the screen with `key`, as `type`.
    public func container<C>(for key: ScreenKey, as type: C.Type) -> C? {
        container(for: key) as? C
    }

    /// The container of the visible screen.
    public var topContainer: Any? {
        store.state.top.flatMap { container(for: $0) }
    }

    private func show<S: Screen>(_ screen: S, action: NavigationAction, source: SourceLocation) -> S.Container {
        let key = screen.key
        let container = screen.build(navigator: self)
        factories[key] = AnyScreen<Any>(name: screen.name, traits: screen.traits) { navigator in
            screen.build(navigator: navigator)
        }
        containers[key] = container
        store.dispatch(action, source: source)
        return container
    }

    private func keep(only keys: Set<ScreenKey>) {
        for key in containers.keys where !keys.contains(key) {
            containers[key] = nil
        }
    }
}
