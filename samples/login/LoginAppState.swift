import Rewind

/// The whole app as one value: where the user is (navigation) and what each screen shows. Screens are shown on
/// slices of it (``SliceScreen``), so the inspector records all of it, and a jump back in time restores the
/// screens too.
///
/// Threading: a value; `Sendable`.
struct LoginAppState: Codable, Equatable, Sendable, HasNavigationState {
    var navigationState = NavigationState()
    var login = LoginModule.State(message: "Log in to see your home screen.")
    var home = HomeModule.State()
}
