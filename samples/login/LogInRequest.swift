import Rewind

/// The effect "ask the authentication API to log `username` in with `password`", as a value.
///
/// The password travels here, in an effect description, and in the login state and action, where the inspector
/// redacts it (`**.password`); descriptions themselves never leave the process.
/// Threading: a value; performed on the main actor.
struct LogInRequest: EffectDescription {
    typealias Output = Result<User, LoginFailure>
    let username: String
    let password: String
}
