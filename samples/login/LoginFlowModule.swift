import Rewind

/// Names the login flow's types: it emits nothing, and needs a ``LoginFlowContext`` to show its screens.
///
/// Threading: a namespace of types.
enum LoginFlowModule: FlowModule {
    typealias RequiredContext = LoginFlowContext
}
