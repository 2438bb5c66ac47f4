import Foundation
import Rewind
import SampleSupport

/// The login sample's typed commands: each acts on the visible screen, as a tap or a keystroke would, and
/// is refused when that screen is not showing.
///
/// Threading: main actor, like the store.
@MainActor
struct LoginCommands {
    /// One line per command, for `--help` and `help`.
    static let help = [
        "username NAME    type NAME into the username field (login screen)",
        "password TEXT    type TEXT into the password field (login screen; 'wrong' is refused by the API)",
        "submit           log in (login screen; the API answers after its latency)",
        "profile          open the profile (home screen)",
        "back             go back to the previous screen",
        "logout           log out (home screen)",
        "show             print the visible screen as text (on standard error)",
    ]

    /// What `--demo` loops over: a failed login, a successful one, the profile, and logging out.
    static let demoScript = [
        "username alice",
        "password wrong",
        "submit",
        "password secret",
        "submit",
        "profile",
        "back",
        "logout",
    ]

    let store: Store<LoginAppState, LoginAppAction>
    let navigator: ScreenNavigator
    /// Where `show` writes the screen: standard error, so that standard output stays one state per line.
    var display: @MainActor (String) -> Void = { text in FileHandle.standardError.write(Data(text.utf8)) }

    /// The action for `line`, or nil when the command did its job itself.
    func parse(_ line: String) throws(SampleError) -> LoginAppAction? {
        let parts = line.split(separator: " ", maxSplits: 1)
        let word = parts.first.map(String.init) ?? ""
        let rest = parts.count > 1 ? String(parts[1]) : ""
        switch word {
        case "username":
            try expectScreen(LoginModule.self, for: word)
            return .login(.usernameChanged(username: rest))
        case "password":
            try expectScreen(LoginModule.self, for: word)
            return .login(.passwordChanged(password: rest))
        case "submit":
            try expectNothing(after: word, rest)
            try expectScreen(LoginModule.self, for: word)
            return .login(.submitTapped)
        case "profile":
            try expectNothing(after: word, rest)
            try expectScreen(HomeModule.self, for: word)
            return .home(.profileTapped)
        case "logout":
            try expectNothing(after: word, rest)
            try expectScreen(HomeModule.self, for: word)
            return .home(.logOutTapped)
        case "back":
            try expectNothing(after: word, rest)
            guard navigator.state.stack.count > 1 else {
                throw SampleError("there is no screen to go back to")
            }
            navigator.pop()
            return nil
        case "show":
            try expectNothing(after: word, rest)
            let lines = (navigator.topContainer as? TextScreen)?.lines ?? ["(no screen)"]
            display(lines.joined(separator: "\n") + "\n")
            return nil
        default:
            throw SampleError("unknown command '\(line)' (type 'help' for the list)")
        }
    }

    private func expectNothing(after word: String, _ rest: String) throws(SampleError) {
        guard rest.isEmpty else { throw SampleError("'\(word)' takes nothing after it") }
    }

    private func expectScreen<Module: ScreenModule>(_ module: Module.Type, for word: String) throws(SampleError) {
        let visible = navigator.state.top?.name ?? "no screen"
        guard visible == String(describing: module) else {
            throw SampleError("'\(word)' needs the \(String(describing: module)) screen, but \(visible) is showing")
        }
    }
}
