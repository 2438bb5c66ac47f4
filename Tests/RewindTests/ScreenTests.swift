import Rewind
import Testing

struct ChatScreen: Screen {
    let chatID: Int

    var traits: Set<AnyHashable> { [chatID] }

    func build(navigator: ScreenNavigator) -> String {
        "chat \(chatID)"
    }
}

struct SettingsScreen: Screen {
    var name: String { "Settings" }

    func build(navigator: ScreenNavigator) -> String {
        "settings"
    }
}

/// A container that is its own factory.
final class SimpleView: Screen {
    let text = "simple"
}

@MainActor
func makeNavigator() -> (Store<NavigationState, NavigationAction>, ScreenNavigator) {
    let store = Store(initialState: NavigationState(), reducer: NavigationState.reducer)
    return (store, ScreenNavigator(store: store))
}

@Suite("Screens: factories with a name and traits forming a key")
@MainActor
struct ScreenTests {
    @Test("a screen's name defaults to its type name")
    func defaultName() {
        #expect(ChatScreen(chatID: 1).name == "ChatScreen")
        #expect(SettingsScreen().name == "Settings")
    }

    @Test("traits tell apart screens with the same name")
    func traits() {
        #expect(ChatScreen(chatID: 1).key != ChatScreen(chatID: 2).key)
        #expect(ChatScreen(chatID: 1).key == ChatScreen(chatID: 1).key)
        #expect(SettingsScreen().key == ScreenKey(name: "Settings"))
        #expect(ChatScreen(chatID: 1).description == "ChatScreen[1]")
    }

    @Test("traits of different types stay distinct in a key")
    func traitTypes() {
        #expect(ScreenKey(name: "A", traits: [1]) != ScreenKey(name: "A", traits: ["1"]))
        #expect(ScreenKey(name: "A", traits: [1, "x"]) == ScreenKey(name: "A", traits: ["x", 1]))
    }

    @Test("a screen builds its container")
    func build() {
        let (_, navigator) = makeNavigator()
        #expect(ChatScreen(chatID: 3).build(navigator: navigator) == "chat 3")
    }

    @Test("a container that is its own factory builds itself")
    func simpleScreen() {
        let (_, navigator) = makeNavigator()
        let view = SimpleView()
        #expect(view.build(navigator: navigator) === view)
        #expect(view.name == "SimpleView")
    }

    @Test("AnyScreen erases the type but keeps the name, traits and what it builds")
    func anyScreen() {
        let (_, navigator) = makeNavigator()
        let screens: [AnyScreen<String>] = [ChatScreen(chatID: 1).eraseToAnyScreen(), SettingsScreen().eraseToAnyScreen()]
        #expect(screens.map(\.key) == [ChatScreen(chatID: 1).key, ScreenKey(name: "Settings")])
        #expect(screens.map { $0.build(navigator: navigator) } == ["chat 1", "settings"])
        #expect(AnyScreen(screens[0]).key == screens[0].key)
        let custom = AnyScreen<String>(name: "Custom", traits: ["x"]) { _ in "custom" }
        #expect(custom.key == ScreenKey(name: "Custom", traits: ["x"]))
        #expect(custom.build(navigator: navigator) == "custom")
    }

    @Test("a decorator changes what a screen builds, not its key")
    func decorator() {
        let (_, navigator) = makeNavigator()
        let framed = AnyScreenDecorator<String, [String]>(description: "framed") { text, _ in
            ["+----+", text, "+----+"]
        }
        let screen = ChatScreen(chatID: 7).decorated(by: framed)
        #expect(screen.key == ChatScreen(chatID: 7).key)
        #expect(screen.build(navigator: navigator) == ["+----+", "chat 7", "+----+"])
        #expect(screen.description == "ChatScreen[7] decorated by framed")
        let counted = screen.decorated(by: AnyScreenDecorator<[String], Int> { lines, _ in lines.count })
        #expect(counted.build(navigator: navigator) == 3)
        #expect(counted.key == screen.key)
    }
}
