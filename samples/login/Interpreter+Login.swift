import Rewind

extension Interpreter {
    /// The login app's interpreter: the authentication API goes in once, at launch, and the interpreter performing
    /// ``LogInRequest`` with it comes out (dependency injection by currying).
    @MainActor
    static func live(api: any AuthenticationAPI) -> Interpreter {
        Interpreter()
            .handling(LogInRequest.self) { request in
                await api.logIn(username: request.username, password: request.password)
            }
    }
}
