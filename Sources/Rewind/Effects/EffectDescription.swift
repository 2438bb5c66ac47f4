/// A description of a side effect, as a value: "save these todos", "load the profile", "log this".
///
/// A reducer returns it inside an effect (``Effect/perform(_:then:)``); an ``Interpreter`` registered for its type
/// performs it and produces an ``Output``, which the effect turns into an action. Descriptions are plain values, so
/// reducers stay pure and tests can run them against a fake interpreter.
///
/// ```swift
/// struct LoadTodos: EffectDescription { typealias Output = [Todo] }
/// struct SaveTodos: EffectDescription { let todos: [Todo] }      // Output defaults to Void
/// ```
///
/// Threading: descriptions are created and interpreted on the main actor.
public protocol EffectDescription {
    /// What performing the description produces (`Void` when nothing comes back). Model failures in it, e.g.
    /// `Result<[Todo], LoadError>`.
    associatedtype Output = Void
}
