import Rewind

/// Every action of the app: navigation, and each screen's actions (labelled `login/submitTapped` on the timeline).
///
/// Threading: a value; `Sendable`.
enum LoginAppAction: Codable, Equatable, Sendable {
    case navigation(NavigationAction)
    case login(LoginModule.Action)
    case home(HomeModule.Action)

    /// Where the login screen's actions sit in the app's.
    static let loginActions = ActionEmbedding<LoginAppAction, LoginModule.Action>(
        embed: LoginAppAction.login,
        extract: { action in
            guard case .login(let login) = action else { return nil }
            return login
        })

    /// Where the home screen's actions sit in the app's.
    static let homeActions = ActionEmbedding<LoginAppAction, HomeModule.Action>(
        embed: LoginAppAction.home,
        extract: { action in
            guard case .home(let home) = action else { return nil }
            return home
        })

    /// Where navigation actions sit in the app's.
    static let navigationActions = ActionEmbedding<LoginAppAction, NavigationAction>(
        embed: LoginAppAction.navigation,
        extract: { action in
            guard case .navigation(let navigation) = action else { return nil }
            return navigation
        })
}
