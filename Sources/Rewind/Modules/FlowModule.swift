/// Names the types of a flow: a coordinator of several screens, driven by their outputs.
///
/// `Output` (default ``NoOutput``) is what the flow emits to its owner when it is done; `RequiredContext` (default
/// ``ScreenNavigator``) is what the flow needs to show its screens. Logic lives in a ``Flow`` subclass.
///
/// ```swift
/// enum OnboardingFlowModule: FlowModule {
///     enum Output: Equatable { case finished(username: String) }
/// }
/// ```
///
/// Threading: a namespace of types; no behaviour of its own.
public protocol FlowModule {
    /// What the flow emits to its owner. Default: ``NoOutput``.
    associatedtype Output = NoOutput
    /// What the flow needs to place its screens. Default: ``ScreenNavigator``.
    associatedtype RequiredContext = ScreenNavigator
}

/// A flow module that emits nothing and shows its screens through a ``ScreenNavigator``.
public enum NoOutputFlow: FlowModule {}
