/// Who is logged in, as the authentication API describes them.
///
/// Threading: a value; `Sendable`.
struct User: Codable, Equatable, Sendable {
    let username: String
    let displayName: String
}
