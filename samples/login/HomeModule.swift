import Rewind

/// The home screen: who is logged in, a way to their profile, and logging out.
///
/// Threading: main actor (its static functions); its nested types are plain `Sendable` values.
enum HomeModule: TextScreenModule {
    struct State: Codable, Equatable, Sendable, DefaultInitializable {
        /// Who is logged in; nil once they have logged out.
        var user: User?

        init() {}
    }

    enum Action: Codable, Equatable, Sendable {
        /// The flow opens the home screen for `user`.
        case show(user: User)
        case profileTapped
        case logOutTapped
    }

    enum Output: Equatable, Sendable {
        case didOpenProfile(User)
        case didLogOut
    }

    static func reducer(output: OutputEmitter<Action, Output>) -> Reducer<State, Action> {
        Reducer { state, action in
            switch action {
            case .show(let user):
                state.user = user
            case .profileTapped:
                guard let user = state.user else { return .none }
                return output(.didOpenProfile(user))
            case .logOutTapped:
                guard state.user != nil else { return .none }
                state.user = nil
                return output(.didLogOut)
            }
            return .none
        }
    }

    static func render(_ state: State) -> [String] {
        guard let user = state.user else { return ["Home", "(logged out)"] }
        return ["Home", "Welcome, \(user.displayName)!", "[profile]  [logout]"]
    }
}
