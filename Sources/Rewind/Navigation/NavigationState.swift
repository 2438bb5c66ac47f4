/// Where the user is, as a value kept in the app state: a main stack of screen keys plus the modal stacks
/// presented above it. Because it is state, navigation is recorded, inspected and time-travelled like everything
/// else; a ``ScreenNavigator`` keeps built screens in step with it.
///
/// Change it by dispatching ``NavigationAction``s handled by ``reducer`` (lift it into the app reducer; see
/// ``HasNavigationState``).
///
/// Threading: a value; `Sendable`.
public struct NavigationState: Hashable, Codable, Sendable {
    /// The main stack, root first.
    public var stack: [ScreenKey]
    /// The modal stacks presented above the main stack, bottom first; each is a stack, root first.
    public var modals: [[ScreenKey]]

    /// A navigation state; empty by default.
    public init(stack: [ScreenKey] = [], modals: [[ScreenKey]] = []) {
        self.stack = stack
        self.modals = modals
    }

    /// The screen on top: the visible one.
    public var top: ScreenKey? {
        modals.last?.last ?? stack.last
    }

    /// True when a modal stack is presented.
    public var isPresenting: Bool {
        !modals.isEmpty
    }

    /// Every key, main stack first, then each modal stack.
    public var allKeys: [ScreenKey] {
        stack + modals.flatMap { $0 }
    }

    /// Applies `action` (see ``NavigationAction`` for the meaning of each case).
    public mutating func apply(_ action: NavigationAction) {
        switch action {
        case .push(let key):
            if modals.isEmpty {
                stack.append(key)
            } else {
                modals[modals.count - 1].append(key)
            }
        case .pop:
            if let last = modals.indices.last {
                if modals[last].count > 1 {
                    modals[last].removeLast()
                }
            } else if stack.count > 1 {
                stack.removeLast()
            }
        case .popToRoot:
            if let last = modals.indices.last {
                modals[last] = Array(modals[last].prefix(1))
            } else {
                stack = Array(stack.prefix(1))
            }
        case .present(let key):
            modals.append([key])
        case .dismiss:
            if !modals.isEmpty {
                modals.removeLast()
            }
        case .setRoot(let key):
            stack = [key]
            modals = []
        }
    }

    /// The reducer of navigation: applies each ``NavigationAction``; no effects.
    public static let reducer = Reducer<NavigationState, NavigationAction> { state, action in
        state.apply(action)
        return .none
    }
}
