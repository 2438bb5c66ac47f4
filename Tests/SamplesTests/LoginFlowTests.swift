import Rewind
import RewindTesting
import Testing
@testable import login

/// The whole login app as `main.swift` assembles it (with a test clock and a fast API), driven by typed commands.
@MainActor
final class LoginApplication {
    let clock = TestClock()
    let flow = LoginFlow()
    let store: Store<LoginAppState, LoginAppAction>
    let context: LoginFlowContext
    private(set) var commands: LoginCommands
    /// What `show` printed.
    private(set) var shown: [String] = []
    private(set) var middleware: MiddlewareContext<LoginAppState, LoginAppAction>?

    init() {
        var captured: MiddlewareContext<LoginAppState, LoginAppAction>?
        store = Store(
            initialState: LoginAppState(),
            reducer: LoginApp.reducer(login: flow.loginOutput, home: flow.homeOutput),
            interpreter: .live(api: SimulatedAuthenticationAPI(clock: clock, latency: .milliseconds(600))),
            middleware: [Middleware { context in
                captured = context
                return { next in next }
            }],
            configuration: StoreConfiguration(clock: clock)
        )
        middleware = captured
        context = LoginFlowContext(store: store)
        commands = LoginCommands(store: store, navigator: context.navigator)
        flow.start(with: context)
        commands.display = { [weak self] text in self?.shown.append(text) }
    }

    /// Runs `lines` as the sample runner does, letting the API answer after each.
    func run(_ lines: String...) async throws {
        for line in lines {
            if let action = try commands.parse(line) { store.dispatch(action) }
            await clock.advance(by: .milliseconds(600))
        }
    }

    var stack: [String] { store.state.navigationState.stack.map(\.name) }
    var visibleLines: [String]? { (context.navigator.topContainer as? TextScreen)?.lines }
}

@Suite("login sample: the flow, navigation in the app state, time travel")
@MainActor
struct LoginFlowTests {
    let alice = User(username: "alice", displayName: "Alice")

    @Test("the flow starts on the login screen, on the app store's login slice")
    func start() {
        let app = LoginApplication()
        #expect(app.stack == ["LoginModule"])
        #expect(app.visibleLines == ["Login", "Log in to see your home screen.", "username: ", "password: ",
                                     "[submit]"])
    }

    @Test("a successful login opens the home screen for the user; profile, back and logout navigate")
    func journey() async throws {
        let app = LoginApplication()
        try await app.run("username alice", "password wrong", "submit")
        #expect(app.stack == ["LoginModule"])
        #expect(app.store.state.login.error == "Wrong username or password.")

        try await app.run("password secret", "submit")
        #expect(app.stack == ["HomeModule"])
        #expect(app.store.state.home.user == alice)
        #expect(app.store.state.login.password == "")
        #expect(app.visibleLines == ["Home", "Welcome, Alice!", "[profile]  [logout]"])

        try await app.run("profile")
        #expect(app.store.state.navigationState.stack.last == ScreenKey(name: "ProfileScreen", traits: ["alice"]))
        #expect(app.visibleLines?.first == "Profile")
        try await app.run("back", "logout")
        #expect(app.stack == ["LoginModule"])
        #expect(app.store.state.home.user == nil)
        #expect(app.visibleLines?[2] == "username: alice")
    }

    @Test("a jump back in time puts back the screens of that moment, rebuilt on the app state")
    func timeTravel() async throws {
        let app = LoginApplication()
        try await app.run("username alice", "password secret", "submit", "profile")
        let onProfile = app.store.state
        try await app.run("back", "logout", "username bob")
        #expect(app.stack == ["LoginModule"])

        app.middleware?.replaceState(onProfile)
        #expect(app.stack == ["HomeModule", "ProfileScreen"])
        #expect(app.visibleLines == ["Profile", "name: Alice", "username: alice", "[back]"])
        try await app.run("back")
        #expect(app.visibleLines == ["Home", "Welcome, Alice!", "[profile]  [logout]"])
    }

    @Test("commands act on the visible screen only, and say which one is showing")
    func commandsFollowTheScreen() async throws {
        let app = LoginApplication()
        #expect(throws: (any Error).self) { try app.commands.parse("logout") }
        #expect(throws: (any Error).self) { try app.commands.parse("profile") }
        #expect(throws: (any Error).self) { try app.commands.parse("back") }
        #expect(try app.commands.parse("password two words") == .login(.passwordChanged(password: "two words")))
        try await app.run("username alice", "password secret", "submit")
        #expect(throws: (any Error).self) { try app.commands.parse("username bob") }
        #expect(throws: (any Error).self) { try app.commands.parse("submit") }
        #expect(try app.commands.parse("logout") == .home(.logOutTapped))
        for bad in ["fly", "submit now", "logout please", ""] {
            #expect(throws: (any Error).self, "\(bad)") { try app.commands.parse(bad) }
        }
        #expect(try app.commands.parse("show") == nil)
        #expect(app.shown == ["Home\nWelcome, Alice!\n[profile]  [logout]\n"])
    }

    @Test("the demo script is made of valid commands and ends on the login screen it started from")
    func demoScript() async throws {
        let app = LoginApplication()
        for _ in 1...2 {
            for line in LoginCommands.demoScript {
                try await app.run(line)
            }
            #expect(app.stack == ["LoginModule"])
            #expect(app.store.state.home.user == nil)
        }
    }
}
