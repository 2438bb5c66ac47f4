import Rewind

/// Coordinates the screens: the login screen first; once logged in, the home screen; from there the profile,
/// and back to login after logging out. It decides only what is shown next, reacting to the screens' outputs;
/// what each screen does is in its module.
///
/// Create it before the store, give the store's reducer its ``loginOutput`` and ``homeOutput``, then start it with
/// the store's ``LoginFlowContext``.
/// Threading: main actor.
final class LoginFlow: Flow<LoginFlowModule> {
    /// Delivers the login screen's outputs to this flow, for as long as it lives.
    var loginOutput: OutputEmitter<LoginModule.Action, LoginModule.Output> {
        OutputEmitter { [weak self] output in self?.login(didOutput: output) }
    }

    /// Delivers the home screen's outputs to this flow, for as long as it lives.
    var homeOutput: OutputEmitter<HomeModule.Action, HomeModule.Output> {
        OutputEmitter { [weak self] output in self?.home(didOutput: output) }
    }

    override func didStart(with context: LoginFlowContext) {
        context.navigator.setRoot(SliceScreen<LoginModule>(store: context.login))
    }

    private func login(didOutput output: LoginModule.Output) {
        guard let context else { return }
        switch output {
        case .didLogIn(let user):
            context.home.dispatch(.show(user: user))
            context.navigator.setRoot(SliceScreen<HomeModule>(store: context.home))
        }
    }

    private func home(didOutput output: HomeModule.Output) {
        guard let context else { return }
        switch output {
        case .didOpenProfile(let user):
            context.navigator.push(ProfileScreen(user: user))
        case .didLogOut:
            context.navigator.setRoot(SliceScreen<LoginModule>(store: context.login))
        }
    }
}
