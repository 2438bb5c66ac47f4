import Rewind

/// The profile of a user: a plain ``Screen`` with no module and no state of its own; the user is its external
/// parameter, and a trait, so that two users' profiles are two different screens on the navigation stack.
///
/// Threading: `build` runs on the main actor.
struct ProfileScreen: Screen {
    let user: User

    var traits: Set<AnyHashable> {
        [user.username]
    }

    func build(navigator: ScreenNavigator) -> TextScreen {
        TextScreen(lines: ["Profile", "name: \(user.displayName)", "username: \(user.username)", "[back]"])
    }
}
