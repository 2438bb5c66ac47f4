/// Why the authentication API refused a login, as a sentence for the login screen.
///
/// Threading: a value; `Sendable`.
struct LoginFailure: Error, Equatable, Sendable {
    let reason: String
}
