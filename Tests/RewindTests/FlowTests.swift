import Rewind
import Testing

enum WelcomeModule: ScreenModule {
    struct State: Equatable, Codable { var username: String }
    enum Action: Equatable, Codable { case didTapContinue }
    enum Output: Equatable { case didContinue }
    typealias Rendering = TextView

    static func reducer(output: OutputEmitter<Action, Output>) -> Reducer<State, Action> {
        Reducer { _, action in
            switch action {
            case .didTapContinue: return output(.didContinue)
            }
        }
    }

    static func createScreen(with store: ModuleStore<WelcomeModule>) -> ModuleScreen<WelcomeModule> {
        let view = TextView()
        store.subscribe(view) { view, state in view.show(["Welcome, \(state.username)!"]) }
        return ModuleScreen(store, view)
    }
}

enum OnboardingFlowModule: FlowModule {
    enum Output: Equatable { case finished(username: String) }
}

/// Login, then welcome, then done: coordinated through the screens' outputs.
final class OnboardingFlow: Flow<OnboardingFlowModule> {
    override func didStart(with navigator: ScreenNavigator) {
        let login = navigator.setRoot(LoginModule.screen(with: .init(username: "", message: "Log in")))
        login.observeOutput(self) { flow, output in
            switch output {
            case .didLogin(let username): flow.showWelcome(username)
            }
        }
    }

    private func showWelcome(_ username: String) {
        guard let navigator = context else { return }
        let welcome = navigator.push(WelcomeModule.screen(with: .init(username: username)))
        welcome.observeOutput(self) { flow, _ in flow.dispatchOutput(.finished(username: username)) }
    }
}

@Suite("FlowModule: coordinating screens through their outputs")
@MainActor
struct FlowTests {
    @Test("a flow shows its first screen when started")
    func start() {
        let (store, navigator) = makeNavigator()
        let flow = OnboardingFlow()
        flow.start(with: navigator)
        #expect(flow.context === navigator)
        #expect(store.state.stack == [ScreenKey(name: "LoginModule")])
        #expect(navigator.container(for: ScreenKey(name: "LoginModule"), as: ModuleScreen<LoginModule>.self)?
            .rendering.lines == ["Log in", "user: "])
    }

    @Test("a screen's output moves the flow on, and the flow emits its own output when done")
    func coordinate() {
        let (store, navigator) = makeNavigator()
        let flow = OnboardingFlow()
        var outputs: [OnboardingFlowModule.Output] = []
        flow.observeOutput { outputs.append($0) }
        flow.start(with: navigator)

        let login = navigator.topContainer as? ModuleScreen<LoginModule>
        login?.store.dispatch(.didEditUsername("Ada"))
        login?.store.dispatch(.didEditPassword("pw"))
        login?.store.dispatch(.didTapLogin)
        #expect(store.state.stack == [ScreenKey(name: "LoginModule"), ScreenKey(name: "WelcomeModule")])

        let welcome = navigator.topContainer as? ModuleScreen<WelcomeModule>
        #expect(welcome?.rendering.lines == ["Welcome, Ada!"])
        #expect(outputs.isEmpty)
        welcome?.store.dispatch(.didTapContinue)
        #expect(outputs == [.finished(username: "Ada")])
    }

    @Test("a released flow stops reacting to its screens' outputs")
    func releasedFlow() {
        let (store, navigator) = makeNavigator()
        var flow: OnboardingFlow? = OnboardingFlow()
        flow?.start(with: navigator)
        let login = navigator.topContainer as? ModuleScreen<LoginModule>
        flow = nil
        login?.store.dispatch(.didEditUsername("Ada"))
        login?.store.dispatch(.didEditPassword("pw"))
        login?.store.dispatch(.didTapLogin)
        #expect(store.state.stack == [ScreenKey(name: "LoginModule")])
    }

    @Test("NoOutputFlow needs no declarations")
    func noOutputFlow() {
        final class Single: Flow<NoOutputFlow> {
            override func didStart(with navigator: ScreenNavigator) {
                navigator.setRoot(BlankModule.screen())
            }
        }
        let (store, navigator) = makeNavigator()
        let flow = Single()
        flow.start(with: navigator)
        #expect(store.state.top == ScreenKey(name: "BlankModule"))
    }
}
