import Rewind
import RewindTesting
import Testing
@testable import login

@Suite("login sample: the login screen module")
@MainActor
struct LoginModuleTests {
    final class Outputs {
        var received: [LoginModule.Output] = []
    }

    let outputs = Outputs()
    let alice = User(username: "alice", displayName: "Alice")

    func makeStore(latency: Duration = .milliseconds(600), failureRate: Double = 0)
        -> TestStore<LoginModule.State, LoginModule.Action> {
        let clock = TestClock()
        let api = SimulatedAuthenticationAPI(clock: clock, latency: latency, failureRate: failureRate)
        let outputs = self.outputs
        return TestStore(initialState: LoginModule.State(message: "Log in"),
                         reducer: LoginModule.reducer(output: OutputEmitter { outputs.received.append($0) }),
                         interpreter: .live(api: api), clock: clock)
    }

    func type(_ store: TestStore<LoginModule.State, LoginModule.Action>, _ username: String, _ password: String) async {
        await store.send(.usernameChanged(username: username)) { $0.username = username }
        await store.send(.passwordChanged(password: password)) { $0.password = password }
    }

    @Test("a submit asks the API; after its latency the user is logged in, the password cleared, the flow told")
    func success() async {
        let store = makeStore()
        await type(store, "alice", "secret")
        await store.send(.submitTapped) { $0.isLoading = true }
        await store.clock.advance(by: .milliseconds(599))
        #expect(store.receivedActions.isEmpty)
        #expect(outputs.received.isEmpty)
        await store.clock.advance(by: .milliseconds(1))
        await store.receive(.loginSucceeded(alice)) {
            $0.isLoading = false
            $0.password = ""
        }
        #expect(outputs.received == [.didLogIn(alice)])
        await store.finish()
    }

    @Test("the password 'wrong' is refused after the latency, with the reason shown and the password cleared")
    func refused() async {
        let store = makeStore()
        await type(store, "alice", "wrong")
        await store.send(.submitTapped) { $0.isLoading = true }
        await store.clock.advance(by: .milliseconds(600))
        await store.receive(.loginFailed(reason: "Wrong username or password.")) {
            $0.isLoading = false
            $0.password = ""
            $0.error = "Wrong username or password."
        }
        await store.send(.passwordChanged(password: "secret")) {
            $0.password = "secret"
            $0.error = nil
        }
        #expect(outputs.received.isEmpty)
        await store.finish()
    }

    @Test("a failing server is reported like any refusal")
    func serverDown() async {
        let store = makeStore(failureRate: 1)
        await type(store, "alice", "secret")
        await store.send(.submitTapped) { $0.isLoading = true }
        await store.clock.advance(by: .milliseconds(600))
        await store.receive(.loginFailed(reason: "The server is not responding. Try again.")) {
            $0.isLoading = false
            $0.password = ""
            $0.error = "The server is not responding. Try again."
        }
        await store.finish()
    }

    @Test("submitting with an empty field asks for both and sends nothing")
    func emptyFields() async {
        let store = makeStore()
        await store.send(.usernameChanged(username: "alice")) { $0.username = "alice" }
        await store.send(.submitTapped) { $0.error = "Enter a username and a password." }
        await store.send(.usernameChanged(username: "")) {
            $0.username = ""
            $0.error = nil
        }
        await store.send(.passwordChanged(password: "secret")) { $0.password = "secret" }
        await store.send(.submitTapped) { $0.error = "Enter a username and a password." }
        await store.finish()
    }

    @Test("a second submit while the first is in flight is ignored")
    func submitWhileLoading() async {
        let store = makeStore()
        await type(store, "alice", "secret")
        await store.send(.submitTapped) { $0.isLoading = true }
        await store.send(.submitTapped)
        await store.clock.advance(by: .milliseconds(600))
        await store.receive(.loginSucceeded(alice)) {
            $0.isLoading = false
            $0.password = ""
        }
        await store.finish()
        #expect(outputs.received == [.didLogIn(alice)])
    }

    @Test("the screen renders the state, the password masked, and follows it on its own module store")
    func rendering() {
        let screen = LoginModule.createScreen(with: LoginModule.State(username: "Billie", message: "Log in to pay"))
        #expect(screen.rendering.lines == ["Login", "Log in to pay", "username: Billie", "password: ", "[submit]"])
        screen.store.dispatch(.passwordChanged(password: "abc"))
        screen.store.dispatch(.submitTapped)
        #expect(screen.rendering.lines == ["Login", "Log in to pay", "username: Billie", "password: ***",
                                           "logging in..."])
    }
}
