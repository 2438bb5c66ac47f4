/// Adopted by an action type that names its own timeline label instead of having one derived from its encoding.
///
/// ``ActionLabel/of(_:)`` uses ``actionLabel`` when the action (or an action nested in one of its cases) conforms.
///
/// Threading: ``actionLabel`` may be read from any thread (the inspector reads it on its own thread), so it must
/// not touch shared mutable state.
public protocol ActionLabelProviding {
    /// The label shown on the timeline, e.g. `"todo/add"`.
    var actionLabel: String { get }
}
