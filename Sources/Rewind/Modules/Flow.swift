/// Coordinates screens: started with a context (by default a ``ScreenNavigator``), it shows screens, observes
/// their outputs and decides what comes next; when done it emits its own ``FlowModule/Output``.
///
/// ```swift
/// final class OnboardingFlow: Flow<OnboardingFlowModule> {
///     override func didStart(with navigator: ScreenNavigator) {
///         navigator.setRoot(LoginModule.screen()).observeOutput(self) { flow, output in
///             switch output {
///             case .didLogin(let username): flow.dispatchOutput(.finished(username: username))
///             }
///         }
///     }
/// }
/// let flow = OnboardingFlow()
/// flow.observeOutput { output in ... }
/// flow.start(with: navigator)
/// ```
///
/// The flow must be kept alive by its owner while it runs; observe child outputs with `self` as owner so that a
/// released flow stops reacting.
///
/// Threading: main actor.
@MainActor
open class Flow<Module: FlowModule> {
    /// The context given to ``start(with:)``; nil before.
    public private(set) var context: Module.RequiredContext?
    private let outputs = OutputRelay<Module.Output>()

    /// Creates a flow that has not started yet.
    public init() {}

    /// Starts the flow in `context`: stores it and calls ``didStart(with:)``.
    public final func start(with context: Module.RequiredContext) {
        self.context = context
        didStart(with: context)
    }

    /// Override to show the first screen and wire outputs. The default does nothing.
    open func didStart(with context: Module.RequiredContext) {}

    /// Emits `output` to the flow's observers, in the order they started observing.
    public final func dispatchOutput(_ output: Module.Output) {
        outputs.deliver(output)
    }

    /// Calls `handler` with every output the flow emits, until the token is cancelled.
    @discardableResult
    public final func observeOutput(_ handler: @escaping @MainActor (Module.Output) -> Void) -> SubscriptionToken {
        outputs.observe { output in
            handler(output)
            return true
        }
    }
}
