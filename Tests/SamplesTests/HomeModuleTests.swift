import Rewind
import RewindTesting
import Testing
@testable import login

@Suite("login sample: the home screen module")
@MainActor
struct HomeModuleTests {
    final class Outputs {
        var received: [HomeModule.Output] = []
    }

    let outputs = Outputs()
    let alice = User(username: "alice", displayName: "Alice")

    func makeStore() -> TestStore<HomeModule.State, HomeModule.Action> {
        let outputs = self.outputs
        return TestStore(initialState: HomeModule.State(),
                         reducer: HomeModule.reducer(output: OutputEmitter { outputs.received.append($0) }))
    }

    @Test("shown for a user, the home screen opens their profile and logs them out")
    func loggedIn() async {
        let store = makeStore()
        await store.send(.show(user: alice)) { $0.user = self.alice }
        await store.send(.profileTapped)
        await store.send(.logOutTapped) { $0.user = nil }
        await store.finish()
        #expect(outputs.received == [.didOpenProfile(alice), .didLogOut])
    }

    @Test("with nobody logged in, profile and logout do nothing")
    func loggedOut() async {
        let store = makeStore()
        await store.send(.profileTapped)
        await store.send(.logOutTapped)
        await store.finish()
        #expect(outputs.received.isEmpty)
    }

    @Test("the screen greets the user, or says nobody is logged in")
    func rendering() {
        #expect(HomeModule.render(HomeModule.State()) == ["Home", "(logged out)"])
        var state = HomeModule.State()
        state.user = alice
        #expect(HomeModule.render(state) == ["Home", "Welcome, Alice!", "[profile]  [logout]"])
    }
}
