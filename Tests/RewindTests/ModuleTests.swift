import Rewind
import Testing

/// What screens render into in these specifications: lines of text, kept up to date from the store.
@MainActor
final class TextView {
    private(set) var lines: [String] = []

    func show(_ lines: [String]) {
        self.lines = lines
    }
}

enum LoginModule: ScreenModule {
    struct State: Equatable, Codable {
        var username: String
        var password = ""
        let message: String
    }

    enum Action: Equatable, Codable {
        case didEditUsername(String)
        case didEditPassword(String)
        case didTapLogin
    }

    enum Output: Equatable {
        case didLogin(username: String)
    }

    typealias Rendering = TextView

    static func reducer(output: OutputEmitter<Action, Output>) -> Reducer<State, Action> {
        Reducer { state, action in
            switch action {
            case .didEditUsername(let username):
                state.username = username
            case .didEditPassword(let password):
                state.password = password
            case .didTapLogin:
                guard !state.username.isEmpty, !state.password.isEmpty else { return .none }
                state.password = ""
                return output(.didLogin(username: state.username))
            }
            return .none
        }
    }

    static func createScreen(with store: ModuleStore<LoginModule>) -> ModuleScreen<LoginModule> {
        let view = TextView()
        store.subscribe(view) { view, state in view.show([state.message, "user: \(state.username)"]) }
        return ModuleScreen(store, view)
    }

    /// The kind of shortcut modules add on top of `createScreen(with:)`.
    static func createScreen(username: String) -> ModuleScreen<LoginModule> {
        createScreen(with: State(username: username, message: "Welcome back"))
    }
}

/// A module that declares nothing but its screen: every type is defaulted.
enum BlankModule: ScreenModule {
    typealias Rendering = String

    static func createScreen(with store: ModuleStore<BlankModule>) -> ModuleScreen<BlankModule> {
        ModuleScreen(store, "blank")
    }
}

@Suite("Modules: StoreModule, ScreenModule and their outputs")
@MainActor
struct ModuleTests {
    @Test("a module's State, Action and Output default to EmptyState, NoAction and NoOutput")
    func defaults() {
        #expect(BlankModule.State.self == EmptyState.self)
        #expect(BlankModule.Action.self == NoAction.self)
        #expect(BlankModule.Output.self == NoOutput.self)
        let screen = BlankModule.createScreen()
        #expect(screen.rendering == "blank")
        #expect(screen.store.state == EmptyState())
    }

    @Test("createScreen(with: initialState) builds the store and the rendering")
    func createScreenWithState() {
        let screen = LoginModule.createScreen(with: .init(username: "Billie", message: "Log in"))
        #expect(screen.store.state.username == "Billie")
        #expect(screen.rendering.lines == ["Log in", "user: Billie"])
        screen.store.dispatch(.didEditUsername("Bo"))
        #expect(screen.rendering.lines == ["Log in", "user: Bo"])
    }

    @Test("convenience overloads build on createScreen(with:)")
    func convenience() {
        let screen = LoginModule.createScreen(username: "Billie")
        #expect(screen.rendering.lines == ["Welcome back", "user: Billie"])
    }

    @Test("outputs are observed separately from state, after the state is committed")
    func outputs() {
        let screen = LoginModule.createScreen(username: "Billie")
        var outputs: [LoginModule.Output] = []
        var passwordAtOutput: [String] = []
        screen.observeOutput { output in
            outputs.append(output)
            passwordAtOutput.append(screen.store.state.password)
        }
        screen.store.dispatch(.didTapLogin)
        #expect(outputs.isEmpty)
        screen.store.dispatch(.didEditPassword("secret"))
        screen.store.dispatch(.didTapLogin)
        #expect(outputs == [.didLogin(username: "Billie")])
        #expect(passwordAtOutput == [""])
    }

    @Test("output observers are called in order and end with their token or owner")
    func outputObservers() {
        let store = ModuleStore<LoginModule>(
            initialState: .init(username: "a", password: "b", message: ""),
            reducer: LoginModule.reducer
        )
        let log = EventLog()
        let token = store.observeOutput { _ in log.append("first") }
        var owner: Subscriber? = Subscriber()
        store.observeOutput(owner!) { owner, _ in owner.received.append(1); log.append("owner") }
        store.observeOutput { _ in log.append("last") }
        store.dispatch(.didTapLogin)
        #expect(log.events == ["first", "owner", "last"])
        token.cancel()
        owner = nil
        log.clear()
        store.dispatch(.didEditPassword("b"))
        store.dispatch(.didTapLogin)
        #expect(log.events == ["last"])
    }

    @Test("a module reducer can be tested with an emitter that records outputs")
    func recordingEmitter() {
        var outputs: [LoginModule.Output] = []
        let store = Store(initialState: LoginModule.State(username: "x", password: "y", message: ""),
                          reducer: LoginModule.reducer(output: OutputEmitter { outputs.append($0) }))
        store.dispatch(.didTapLogin)
        #expect(outputs == [.didLogin(username: "x")])
    }

    @Test("a module store acts as a store: projections and subscriptions work on it")
    func moduleStoreIsAStore() {
        let store = ModuleStore<LoginModule>(initialState: .init(username: "", message: ""),
                                             reducer: LoginModule.reducer)
        let username = store.projection(action: { LoginModule.Action.didEditUsername($0) }, state: \.username)
        var seen: [String] = []
        username.subscribe { seen.append($0) }
        username.dispatch("Kim")
        #expect(seen == ["", "Kim"])
    }

    @Test("the default types are Codable for inspection")
    func codableDefaults() throws {
        let data = try JSONEncoder().encode(EmptyState())
        #expect(String(decoding: data, as: UTF8.self) == "{}")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NoAction.self, from: Data("{}".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NoOutput.self, from: Data("{}".utf8)) }
    }
}

import Foundation
