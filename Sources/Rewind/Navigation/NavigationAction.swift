/// A change of ``NavigationState``, applied by ``NavigationState/reducer``. Recorded and time-travelled like any
/// other action.
///
/// Threading: an immutable value; `Sendable`.
public enum NavigationAction: Hashable, Codable, Sendable {
    /// Pushes a screen onto the topmost stack (the top modal's, when presenting).
    case push(ScreenKey)
    /// Pops the topmost stack's top screen; does nothing when that stack holds only its root.
    case pop
    /// Pops the topmost stack back to its root.
    case popToRoot
    /// Presents a screen modally, as the root of a new stack above everything.
    case present(ScreenKey)
    /// Dismisses the topmost modal stack; does nothing when nothing is presented.
    case dismiss
    /// Makes a screen the only one: the root of the main stack, with nothing presented.
    case setRoot(ScreenKey)
}
