import Foundation
import Rewind
import Testing

struct NavigatingApp: Equatable, Codable, HasNavigationState {
    var navigationState = NavigationState()
    var counter = Counter()
}

enum NavigatingAction: Equatable, Codable {
    case navigation(NavigationAction)
    case counter(CounterAction)
}

let home = ScreenKey(name: "Home")
let detail = ScreenKey(name: "Detail", traits: [1])
let sheet = ScreenKey(name: "Sheet")

@Suite("NavigationState: stack and modals, changed by reducer actions, kept in app state")
@MainActor
struct NavigationTests {
    @Test("push, pop and popToRoot work on the main stack")
    func stack() {
        var state = NavigationState()
        state.apply(.setRoot(home))
        state.apply(.push(detail))
        state.apply(.push(sheet))
        #expect(state.stack == [home, detail, sheet])
        #expect(state.top == sheet)
        state.apply(.pop)
        #expect(state.stack == [home, detail])
        state.apply(.popToRoot)
        #expect(state.stack == [home])
        state.apply(.pop)
        #expect(state.stack == [home])
    }

    @Test("present and dismiss add and remove modal stacks above the main stack")
    func modals() {
        var state = NavigationState(stack: [home])
        state.apply(.present(sheet))
        state.apply(.push(detail))
        #expect(state.modals == [[sheet, detail]])
        #expect(state.top == detail)
        #expect(state.isPresenting)
        state.apply(.pop)
        state.apply(.pop)
        #expect(state.modals == [[sheet]])
        state.apply(.dismiss)
        #expect(state == NavigationState(stack: [home]))
        state.apply(.dismiss)
        #expect(state == NavigationState(stack: [home]))
    }

    @Test("setRoot replaces everything")
    func setRoot() {
        var state = NavigationState(stack: [home, detail], modals: [[sheet]])
        state.apply(.setRoot(detail))
        #expect(state == NavigationState(stack: [detail]))
        #expect(state.allKeys == [detail])
    }

    @Test("navigation lives in the app state, through its reducer")
    func inAppState() {
        let reducer = Reducer<NavigatingApp, NavigatingAction>.navigation(
            extract: { if case .navigation(let action) = $0 { action } else { nil } },
            embed: NavigatingAction.navigation
        )
        let store = Store(initialState: NavigatingApp(), reducer: reducer)
        store.dispatch(.navigation(.setRoot(home)))
        store.dispatch(.navigation(.push(detail)))
        store.dispatch(.counter(.increment))
        #expect(store.state.navigationState.stack == [home, detail])
        #expect(ActionLabel.of(NavigatingAction.navigation(.push(detail))) == "navigation/push")
    }

    @Test("navigation state round-trips through JSON, so it can be recorded and restored")
    func codable() throws {
        let state = NavigationState(stack: [home, detail], modals: [[sheet]])
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(NavigationState.self, from: data) == state)
        let json = String(decoding: try JSONEncoder.sorted.encode(detail), as: UTF8.self)
        #expect(json == #"{"name":"Detail","traits":["1"]}"#)
    }

    @Test("a navigator builds screens, dispatches navigation and keeps the visible containers")
    func navigator() {
        let store = Store(initialState: NavigatingApp(), reducer: .navigation(
            extract: { if case .navigation(let action) = $0 { action } else { nil } },
            embed: NavigatingAction.navigation
        ))
        let navigator = ScreenNavigator(store: store.projection(action: { .navigation($0) }, state: \.navigationState))
        let built = navigator.setRoot(SettingsScreen())
        navigator.push(ChatScreen(chatID: 1))
        #expect(built == "settings")
        #expect(store.state.navigationState.stack == [ScreenKey(name: "Settings"), ChatScreen(chatID: 1).key])
        #expect(navigator.topContainer as? String == "chat 1")
        navigator.present(ChatScreen(chatID: 2))
        #expect(navigator.container(for: ChatScreen(chatID: 2).key, as: String.self) == "chat 2")
        navigator.dismiss()
        navigator.pop()
        #expect(navigator.state.stack == [ScreenKey(name: "Settings")])
        #expect(navigator.container(for: ChatScreen(chatID: 1).key) == nil)
    }

    @Test("after time travel, a navigator rebuilds the containers of screens that come back")
    func timeTravel() {
        var built = 0
        let counting = AnyScreen<Int>(name: "Counting") { _ in
            built += 1
            return built
        }
        var context: MiddlewareContext<NavigationState, NavigationAction>?
        let capture = Middleware<NavigationState, NavigationAction> { made in
            context = made
            return { $0 }
        }
        let store = Store(initialState: NavigationState(), reducer: NavigationState.reducer, middleware: [capture])
        let navigator = ScreenNavigator(store: store)
        navigator.setRoot(SettingsScreen())
        let past = store.state
        navigator.push(counting)
        #expect(navigator.topContainer as? Int == 1)
        navigator.pop()
        #expect(navigator.container(for: counting.key) == nil)
        context?.replaceState(NavigationState(stack: [ScreenKey(name: "Settings"), counting.key]))
        #expect(navigator.topContainer as? Int == 2)
        #expect(navigator.topContainer as? Int == 2)
        context?.replaceState(past)
        #expect(navigator.topContainer as? String == "settings")
    }
}
