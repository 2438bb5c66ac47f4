import Rewind

/// What the login flow needs: the navigator, and the slices of the app store its screens are shown on.
///
/// Threading: main actor.
@MainActor
struct LoginFlowContext {
    let navigator: ScreenNavigator
    let login: StoreProjection<LoginModule.State, LoginModule.Action>
    let home: StoreProjection<HomeModule.State, HomeModule.Action>

    /// The context for `store`: a navigator on its navigation state, and its screens' slices.
    init(store: Store<LoginAppState, LoginAppAction>) {
        navigator = ScreenNavigator(store: store.projection(action: LoginAppAction.navigationActions.embed,
                                                            state: \.navigationState))
        login = store.projection(action: LoginAppAction.loginActions.embed, state: \.login)
        home = store.projection(action: LoginAppAction.homeActions.embed, state: \.home)
    }
}
