import Foundation
import Rewind
import Testing

enum TodoAction: Codable, Sendable {
    case add(title: String)
    case remove(id: Int)
    case clearCompleted
    case move(from: Int, to: Int)
}

enum Filter: String, Codable, Sendable {
    case all, active
}

struct Payload: Codable, Sendable {
    var value: Int
}

enum AppAction: Codable, Sendable {
    case todo(TodoAction)
    case filter(Filter)
    case payload(Payload)
    case labelled(action: TodoAction)
    case custom(CustomLabelled)
    case reset
}

struct CustomLabelled: Codable, Sendable, ActionLabelProviding {
    var actionLabel: String { "custom-label" }
}

enum NotCodable {
    case screen(Inner)
    case plain
    enum Inner { case opened(Int), closed }
}

@Suite("ActionLabel: the timeline label derived from an action's encoding")
struct ActionLabelTests {
    @Test("a nested case becomes a path of case names", arguments: [
        (AppAction.todo(.add(title: "Milk")), "todo/add"),
        (AppAction.todo(.clearCompleted), "todo/clearCompleted"),
        (AppAction.todo(.move(from: 1, to: 2)), "todo/move"),
        (AppAction.reset, "reset"),
        (AppAction.labelled(action: .remove(id: 3)), "labelled/remove"),
    ])
    func casePath(action: AppAction, label: String) {
        #expect(ActionLabel.of(action) == label)
    }

    @Test("the path stops at payloads that are not enum cases")
    func payloadStops() {
        #expect(ActionLabel.of(AppAction.filter(.active)) == "filter")
        #expect(ActionLabel.of(AppAction.payload(Payload(value: 1))) == "payload")
    }

    @Test("a type that provides its own label is used, at the top or nested")
    func provided() {
        #expect(ActionLabel.of(CustomLabelled()) == "custom-label")
        #expect(ActionLabel.of(AppAction.custom(CustomLabelled())) == "custom/custom-label")
    }

    @Test("an action encoded as a single string is labelled with it")
    func rawValue() {
        #expect(ActionLabel.of(Filter.active) == "active")
    }

    @Test("an action that is not Encodable is labelled by reflection")
    func reflection() {
        #expect(ActionLabel.of(NotCodable.screen(.opened(1))) == "screen/opened")
        #expect(ActionLabel.of(NotCodable.screen(.closed)) == "screen/closed")
        #expect(ActionLabel.of(NotCodable.plain) == "plain")
    }

    @Test("a struct action falls back to its type name")
    func structAction() {
        #expect(ActionLabel.of(Payload(value: 3)) == "Payload")
    }

    @Test("labels can be computed concurrently from many threads")
    func concurrent() async {
        let labels = await withTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                group.addTask { ActionLabel.of(AppAction.todo(.add(title: "\(index)"))) }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(labels == ["todo/add"])
    }

    @Test("a dispatched action's label is derived on demand")
    func dispatchedLabel() {
        let dispatched = DispatchedAction(action: AppAction.todo(.remove(id: 1)),
                                          source: Rewind.SourceLocation(file: "App/Todo.swift", line: 3))
        #expect(dispatched.label == "todo/remove")
    }
}

@Suite("Serialisation: source locations and navigation encode for inspection")
struct SerialisationTests {
    @Test("a source location encodes as file and line, however it was created")
    func sourceLocation() throws {
        let literal = Rewind.SourceLocation(file: StaticString("App/Main.swift"), line: 12)
        let text = Rewind.SourceLocation(file: "App/Main.swift", line: 12)
        #expect(literal == text)
        #expect(literal.hashValue == text.hashValue)
        let json = String(decoding: try JSONEncoder.sorted.encode(literal), as: UTF8.self)
        #expect(json == #"{"file":"App\/Main.swift","line":12}"#)
        #expect(try JSONDecoder().decode(Rewind.SourceLocation.self, from: Data(json.utf8)) == text)
    }

    @Test("navigation actions encode with their case names")
    func navigationAction() throws {
        let json = String(decoding: try JSONEncoder.sorted.encode(NavigationAction.push(ScreenKey(name: "A"))),
                          as: UTF8.self)
        #expect(json == #"{"push":{"_0":{"name":"A"}}}"#)
        #expect(ActionLabel.of(NavigationAction.pop) == "pop")
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
