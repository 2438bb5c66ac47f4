import Rewind

/// The login screen of the seeds: username and password typed by the user, a message saying why to log in, and a
/// request to the authentication API when the user submits.
///
/// Threading: main actor (its static functions); its nested types are plain `Sendable` values.
enum LoginModule: TextScreenModule {
    struct State: Codable, Equatable, Sendable {
        /// Typed by the user (dynamic: `var`).
        var username: String
        /// Typed by the user; redacted by the inspector, cleared once a request has been answered.
        var password = ""
        /// Why the user should log in; fixed for the life of the screen (screen invariant: `let`).
        let message: String
        /// True while the request is in flight.
        var isLoading = false
        /// Why the last attempt failed.
        var error: String?

        init(username: String = "", message: String) {
            self.username = username
            self.message = message
        }
    }

    enum Action: Codable, Equatable, Sendable {
        case usernameChanged(username: String)
        case passwordChanged(password: String)
        case submitTapped
        /// The API's answer: the user is logged in.
        case loginSucceeded(User)
        /// The API's answer: refused, or the server failed.
        case loginFailed(reason: String)
    }

    enum Output: Equatable, Sendable {
        /// `user` is logged in: time to leave the login screen.
        case didLogIn(User)
    }

    /// The id of the request in flight, so that a newer submit replaces it.
    enum CancelID: Hashable, Sendable {
        case request
    }

    static func reducer(output: OutputEmitter<Action, Output>) -> Reducer<State, Action> {
        Reducer { state, action in
            switch action {
            case .usernameChanged(let username):
                state.username = username
                state.error = nil
            case .passwordChanged(let password):
                state.password = password
                state.error = nil
            case .submitTapped:
                guard !state.isLoading else { return .none }
                guard !state.username.isEmpty, !state.password.isEmpty else {
                    state.error = "Enter a username and a password."
                    return .none
                }
                state.isLoading = true
                state.error = nil
                return Effect.perform(LogInRequest(username: state.username, password: state.password)) { result in
                    switch result {
                    case .success(let user): .loginSucceeded(user)
                    case .failure(let failure): .loginFailed(reason: failure.reason)
                    }
                }
                .cancellable(id: CancelID.request, cancelInFlight: true)
            case .loginSucceeded(let user):
                state.isLoading = false
                state.password = ""
                return output(.didLogIn(user))
            case .loginFailed(let reason):
                state.isLoading = false
                state.password = ""
                state.error = reason
            }
            return .none
        }
    }

    static func render(_ state: State) -> [String] {
        var lines = ["Login", state.message, "username: \(state.username)",
                     "password: \(String(repeating: "*", count: state.password.count))",
                     state.isLoading ? "logging in..." : "[submit]"]
        if let error = state.error { lines.append("! \(error)") }
        return lines
    }
}
