/// The server the login screen talks to, injected at launch: ``SimulatedAuthenticationAPI`` in the sample, a fake
/// in tests, a network client in a real app.
///
/// Threading: main actor, where the interpreter's handlers run; a network client would await a nonisolated call
/// inside `logIn`.
@MainActor
protocol AuthenticationAPI {
    /// Checks the credentials; returns the user, or why not.
    func logIn(username: String, password: String) async -> Result<User, LoginFailure>
}
