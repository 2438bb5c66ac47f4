/// Adopted by an app state that keeps a ``NavigationState``, so that navigation code can work with any app state
/// through this protocol only.
///
/// Threading: none of its own.
public protocol HasNavigationState {
    /// The app's navigation.
    var navigationState: NavigationState { get set }
}

extension Reducer where State: HasNavigationState {
    /// ``NavigationState/reducer`` lifted into this app state and action type: handles the navigation actions that
    /// `extract` finds, on ``HasNavigationState/navigationState``.
    public static func navigation(
        extract: @escaping @MainActor (Action) -> NavigationAction?,
        embed: @escaping @MainActor (NavigationAction) -> Action
    ) -> Reducer {
        NavigationState.reducer.lifted(state: \State.navigationState, extract: extract, embed: embed)
    }
}
