/// Performs effect descriptions: the only place where side effects actually happen.
///
/// An interpreter maps each ``EffectDescription`` type to an async handler. It is built once, at launch, by a
/// function that takes the app's dependencies and returns the interpreter (dependency injection by currying), and
/// handed to the store:
///
/// ```swift
/// extension Interpreter {
///     static func live(database: Database) -> Interpreter {       // (Dependencies) -> Interpreter
///         Interpreter()
///             .handling(LoadTodos.self) { _ in await database.loadTodos() }
///             .handling(SaveTodos.self) { save in await database.save(save.todos) }
///     }
/// }
/// let store = Store(initialState: AppState(), reducer: .app, interpreter: .live(database: SQLiteDatabase()))
/// ```
///
/// Tests pass an interpreter built from fakes. The seed's interpreter `(() -> S, E, (A) -> Void) -> Void` maps onto
/// this as follows: the state a handler needs travels in the description (the reducer builds it from the
/// committed state), and the handler's output comes back as an action through the effect's `then` transform.
///
/// Threading: `Sendable`; handlers run on the main actor inside the effect's task. Await nonisolated async
/// functions in them for heavy work, so the main actor stays free.
public struct Interpreter: Sendable {
    private var handlers: [ObjectIdentifier: @MainActor (Any) async -> Any] = [:]

    /// An interpreter that handles nothing yet.
    public init() {}

    /// An interpreter that handles nothing: any ``Effect/perform(_:then:)`` is reported as a programming error.
    public static var none: Interpreter { Interpreter() }

    /// A copy of this interpreter that performs descriptions of type `type` with `handler` (replacing any handler
    /// already registered for that type).
    public func handling<Description: EffectDescription>(
        _ type: Description.Type,
        _ handler: @escaping @MainActor (Description) async -> Description.Output
    ) -> Interpreter {
        var copy = self
        copy.handlers[ObjectIdentifier(type)] = { description in
            await handler(description as! Description)
        }
        return copy
    }

    /// An interpreter handling everything `interpreters` handle; for a type handled by several, the last one wins.
    public static func combine(_ interpreters: Interpreter...) -> Interpreter {
        combine(interpreters)
    }

    /// An interpreter handling everything `interpreters` handle; for a type handled by several, the last one wins.
    public static func combine(_ interpreters: [Interpreter]) -> Interpreter {
        var result = Interpreter()
        for interpreter in interpreters {
            result.handlers.merge(interpreter.handlers) { _, new in new }
        }
        return result
    }

    /// Whether a handler is registered for `type`.
    public func handles<Description: EffectDescription>(_ type: Description.Type) -> Bool {
        handlers[ObjectIdentifier(type)] != nil
    }

    /// Performs `description`, or returns nil when no handler is registered for its type.
    @MainActor
    func perform<Description: EffectDescription>(_ description: Description) async -> Description.Output? {
        guard let handler = handlers[ObjectIdentifier(Description.self)] else { return nil }
        return await handler(description) as? Description.Output
    }
}
