/// Names the value types of a self-contained piece of the app: its ``State``, the ``Action``s it handles, and the
/// ``Output`` it emits to whoever owns it (a flow, a parent screen).
///
/// Every type has a default, so a module declares only what it needs: `State` defaults to ``EmptyState``,
/// `Action` to ``NoAction`` and `Output` to ``NoOutput``.
///
/// ```swift
/// enum LoginModule: ScreenModule {
///     struct State: Equatable, Codable { var username = ""; var password = ""; let message: String }
///     enum Action: Equatable, Codable { case didEditUsername(String), didTapLogin }
///     enum Output: Equatable { case didLogin(username: String) }
///     ...
/// }
/// ```
///
/// Declaring state: dynamic content is a `var`; content invariant for one screen instance is a `let`; constants
/// stay out of the state.
///
/// Threading: a namespace of types; no behaviour of its own.
public protocol StoreModule {
    /// The module's state. Default: ``EmptyState``.
    associatedtype State = EmptyState
    /// The actions the module handles. Default: ``NoAction``.
    associatedtype Action = NoAction
    /// What the module emits to its owner, observed separately from state. Default: ``NoOutput``.
    associatedtype Output = NoOutput
}
