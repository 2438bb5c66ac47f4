import Rewind

/// The app's logic, assembled from its parts: navigation and each screen module's reducer, lifted into the app
/// state and actions.
///
/// Threading: main actor.
@MainActor
enum LoginApp {
    /// The app reducer. Each module's outputs go to the emitter given for it (the flow, in the app).
    static func reducer(
        login: OutputEmitter<LoginModule.Action, LoginModule.Output>,
        home: OutputEmitter<HomeModule.Action, HomeModule.Output>
    ) -> Reducer<LoginAppState, LoginAppAction> {
        .combine(
            .navigation(extract: LoginAppAction.navigationActions.extract,
                        embed: LoginAppAction.navigationActions.embed),
            LoginModule.reducer(output: login).lifted(state: \.login, action: LoginAppAction.loginActions),
            HomeModule.reducer(output: home).lifted(state: \.home, action: LoginAppAction.homeActions)
        )
    }
}
