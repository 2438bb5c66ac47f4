import Foundation
@_spi(Testing) import Rewind
import Testing

/// A store for tests that asserts, exhaustively, everything a feature does: the state change of every action,
/// every action its effects send back, and that every effect has finished by the end of the test.
///
/// ```swift
/// @Test("loading shows the loaded todos") @MainActor
/// func loading() async {
///     let store = TestStore(initialState: AppState(), reducer: .app,
///                           interpreter: Interpreter().handling(LoadTodos.self) { _ in [milk] })
///     await store.send(.refresh) { $0.isLoading = true }           // describe the expected mutation
///     await store.receive(.loaded([milk])) {                        // the action the effect sent back
///         $0.isLoading = false
///         $0.todos = [milk]
///     }
/// }                                                                 // effects still running here fail the test
/// ```
///
/// Each failure names what went wrong and shows a diff (`-` expected, `+` actual): a state change when none was
/// described, a mismatch with the described change, a described change that did not happen, received actions
/// that were not asserted or differ from the expected one, a missing received action, and effects still running at
/// the end (checked by ``finish(timeout:fileID:filePath:line:column:)`` or when the test store is released).
/// With ``exhaustivity`` `.off`, only what the test asserts is checked.
///
/// Time-based effects wait on ``clock``, a ``TestClock``: advance it instead of sleeping.
///
/// Threading: main actor; mark tests that use it `@MainActor`.
@MainActor
public final class TestStore<State: Equatable, Action> {
    /// The clock the store's time-based effects wait on.
    public let clock: TestClock
    /// How strictly the test is checked. Default `.on`.
    public var exhaustivity: Exhaustivity
    /// How long `receive` and `finish` wait for effects that are still running (real time; only reached when a
    /// test fails, since effects on the ``clock`` run as soon as it is advanced). Default 1 second.
    public var timeout: Duration

    private let store: Store<State, Action>
    private let recorder: ActionRecorder<State, Action>
    private let reportIssue: @Sendable (TestStoreFailure) -> Void
    private let leftovers = LeftoverReport()
    private var currentLocation: Testing.SourceLocation
    private var activity: CheckedContinuation<Void, Never>?
    private var isFinished = false

    /// Creates a test store.
    ///
    /// - Parameters:
    ///   - initialState: The state before the first action.
    ///   - reducer: The reducer under test.
    ///   - interpreter: Performs effect descriptions; pass one built from fakes.
    ///   - middleware: Middleware to run, as in the real store.
    ///   - clock: The clock time-based effects wait on.
    ///   - exhaustivity: How strictly to check.
    ///   - reportIssue: Receives each failure. Default: ``TestStoreFailure/recordIssue(_:)`` (Swift Testing).
    public init(
        initialState: State,
        reducer: Reducer<State, Action>,
        interpreter: Interpreter = .none,
        middleware: [Middleware<State, Action>] = [],
        clock: TestClock = TestClock(),
        exhaustivity: Exhaustivity = .on,
        reportIssue: @escaping @Sendable (TestStoreFailure) -> Void = TestStoreFailure.recordIssue,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        let recorder = ActionRecorder<State, Action>()
        self.recorder = recorder
        self.clock = clock
        self.exhaustivity = exhaustivity
        self.timeout = .seconds(1)
        self.reportIssue = reportIssue
        self.currentLocation = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)

        let failures = FailureForwarder()
        let recording = Reducer<State, Action> { state, action in
            let effect = reducer.reduce(&state, action)
            recorder.record(action, state: state)
            return effect
        }
        self.store = Store(
            initialState: initialState,
            reducer: recording,
            interpreter: interpreter,
            middleware: middleware,
            configuration: StoreConfiguration(
                clock: clock,
                onRunawayLoop: { loop in failures.report(.runawayLoop, loop.description) },
                onProgrammingError: { error in failures.report(.programmingError, error.description) }
            )
        )
        recorder.lastAssertedState = initialState
        failures.testStore = self
        recorder.onReceive = { [weak self] in self?.noteActivity() }
        store._onEffectActivity = { [weak self] in self?.noteActivity() }
    }

    deinit {
        leftovers.reportIfUnfinished(reportIssue)
    }

    /// The store's current state.
    public var state: State {
        store.state
    }

    /// Actions received from effects and not asserted yet, oldest first.
    public var receivedActions: [Action] {
        recorder.received.map(\.action)
    }

    // MARK: Send

    /// Sends `action` as the user would, and asserts how it changes the state.
    ///
    /// Pass a closure that mutates the state before the action into the state expected after it; omit it when the
    /// action must not change the state. In exhaustive mode, received actions not asserted yet fail the test.
    public func send(
        _ action: Action,
        assert updateExpectedState: ((inout State) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        currentLocation = location
        if !recorder.received.isEmpty {
            if exhaustivity == .on {
                let count = recorder.received.count
                fail(.unexpectedReceivedActions, "\(Self.count(count, "received action")) \(count == 1 ? "was" : "were") "
                    + "not asserted before sending \(describe(action)): "
                    + recorder.received.map { describe($0.action) }.joined(separator: ", ")
                    + ". Assert \(count == 1 ? "it" : "them") with receive(_:), or set exhaustivity to .off.",
                    at: location)
            }
            recorder.lastAssertedState = recorder.received.last?.state ?? recorder.lastAssertedState
            recorder.received.removeAll()
        }
        let before = exhaustivity == .on ? recorder.lastAssertedState! : store.state
        recorder.expectSentAction()
        store.dispatch(action, source: Rewind.SourceLocation(file: fileID, line: UInt(line)))
        let after = recorder.takeSentState() ?? store.state
        recorder.lastAssertedState = after
        assertState(before: before, after: after, update: updateExpectedState,
                    context: "sending \(describe(action))", at: location)
        updateLeftovers()
        await TestClock.yieldToEffects()
        updateLeftovers()
    }

    // MARK: Receive

    /// Asserts that the next action received from an effect is `expected`, and how it changes the state.
    ///
    /// Waits, up to ``timeout``, while effects are running and nothing was received yet. In non-exhaustive mode,
    /// received actions before the first one equal to `expected` are skipped.
    public func receive(
        _ expected: Action,
        timeout: Duration? = nil,
        assert updateExpectedState: ((inout State) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async where Action: Equatable {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            description: describe(expected),
            matches: { $0 == expected },
            mismatch: { received in
                "Received an action that does not match the expected one (- expected, + received):\n"
                    + LineDiff.of(expected: expected, actual: received)
            },
            timeout: timeout, update: updateExpectedState, at: location
        )
    }

    /// Asserts that the next action received from an effect satisfies `isExpected`, and how it changes the state.
    public func receive(
        where isExpected: @escaping (Action) -> Bool,
        timeout: Duration? = nil,
        assert updateExpectedState: ((inout State) throws -> Void)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            description: "an action matching the predicate",
            matches: isExpected,
            mismatch: { received in "Received \(self.describe(received)), which does not match the predicate." },
            timeout: timeout, update: updateExpectedState, at: location
        )
    }

    private func receive(
        description: String,
        matches: @escaping (Action) -> Bool,
        mismatch: (Action) -> String,
        timeout: Duration?,
        update: ((inout State) throws -> Void)?,
        at location: Testing.SourceLocation
    ) async {
        currentLocation = location
        let exhaustive = exhaustivity == .on
        let arrived = await waitUntil(timeout: timeout ?? self.timeout, stopWhenNoEffects: true) {
            exhaustive ? !self.recorder.received.isEmpty : self.recorder.received.contains { matches($0.action) }
        }
        guard arrived else {
            fail(.missingReceivedAction, missingMessage(description, timeout: timeout ?? self.timeout), at: location)
            updateLeftovers()
            return
        }
        if !exhaustive, let index = recorder.received.firstIndex(where: { matches($0.action) }) {
            recorder.received.removeFirst(index)
        }
        let entry = recorder.received.removeFirst()
        let before = recorder.lastAssertedState!
        recorder.lastAssertedState = entry.state
        updateLeftovers()
        guard matches(entry.action) else {
            fail(.receivedActionMismatch, mismatch(entry.action), at: location)
            return
        }
        assertState(before: before, after: entry.state, update: update,
                    context: "receiving \(describe(entry.action))", at: location)
        await TestClock.yieldToEffects()
        updateLeftovers()
    }

    private func missingMessage(_ description: String, timeout: Duration) -> String {
        let running = store._runningEffectOrigins
        if running.isEmpty {
            return "Expected to receive \(description), but no action was received and no effect is running."
        }
        return "Expected to receive \(description), but no action was received within \(timeout); "
            + "\(Self.count(running.count, "effect")) \(running.count == 1 ? "is" : "are") still running, started by "
            + running.map { describe($0.action) }.joined(separator: ", ") + "."
    }

    /// Drops the received actions not asserted yet, without failing.
    public func skipReceivedActions() async {
        await TestClock.yieldToEffects()
        recorder.lastAssertedState = recorder.received.last?.state ?? recorder.lastAssertedState
        recorder.received.removeAll()
        updateLeftovers()
    }

    // MARK: Finish

    /// Ends the test: waits (up to ``timeout``) for running effects to finish, then, in exhaustive mode, fails for
    /// effects still running and for received actions not asserted. Called implicitly (without waiting) when the
    /// test store is released.
    public func finish(
        timeout: Duration? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        currentLocation = location
        _ = await waitUntil(timeout: timeout ?? self.timeout, stopWhenNoEffects: false) {
            self.store._runningEffectOrigins.isEmpty
        }
        isFinished = true
        leftovers.markFinished()
        guard exhaustivity == .on else { return }
        if let message = LeftoverReport.receivedMessage(recorder.received.map { describe($0.action) }) {
            fail(.unexpectedReceivedActions, message, at: location)
        }
        if let message = LeftoverReport.runningMessage(store._runningEffectOrigins.map { describe($0.action) }) {
            fail(.effectsStillRunning, message, at: location)
        }
    }

    // MARK: Assertions

    private func assertState(
        before: State, after: State, update: ((inout State) throws -> Void)?,
        context: String, at location: Testing.SourceLocation
    ) {
        if exhaustivity == .off {
            guard let update else { return }
            var expected = after
            do {
                try update(&expected)
            } catch {
                fail(.assertionThrew, "The trailing closure threw after \(context): \(error)", at: location)
                return
            }
            if expected != after {
                fail(.stateMismatch, "The state after \(context) does not match the expectation "
                    + "(- expected, + actual):\n" + LineDiff.of(expected: expected, actual: after), at: location)
            }
            return
        }
        guard let update else {
            if after != before {
                fail(.unexpectedStateChange, "The state changed after \(context), but no change was expected "
                    + "(- expected, + actual):\n" + LineDiff.of(expected: before, actual: after), at: location)
            }
            return
        }
        var expected = before
        do {
            try update(&expected)
        } catch {
            fail(.assertionThrew, "The trailing closure threw after \(context): \(error)", at: location)
            return
        }
        if expected == before && after == before {
            fail(.expectedStateChangeMissing, "Expected the state to change after \(context), but it did not, and "
                + "the trailing closure made no change either. Omit the trailing closure when no change is expected.",
                at: location)
        } else if expected != after {
            fail(.stateMismatch, "The state after \(context) does not match the expectation (- expected, + actual):\n"
                + LineDiff.of(expected: expected, actual: after), at: location)
        }
    }

    fileprivate func fail(_ kind: TestStoreFailure.Kind, _ message: String, at location: Testing.SourceLocation? = nil) {
        reportIssue(TestStoreFailure(kind: kind, message: message, sourceLocation: location ?? currentLocation))
    }

    private func describe(_ action: Action) -> String {
        ValueDump.inline(action)
    }

    private static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    // MARK: Waiting

    /// Waits until `condition` holds, something can no longer happen, or `timeout` of real time passes.
    private func waitUntil(
        timeout: Duration, stopWhenNoEffects: Bool, _ condition: @escaping () -> Bool
    ) async -> Bool {
        await TestClock.yieldToEffects()
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if stopWhenNoEffects && store._runningEffectOrigins.isEmpty { return false }
            if ContinuousClock.now >= deadline { return false }
            await waitForActivity(until: deadline)
            await TestClock.yieldToEffects()
        }
        return true
    }

    /// Suspends until an effect starts or finishes, an action is received, or `deadline` passes.
    private func waitForActivity(until deadline: ContinuousClock.Instant) async {
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            if !Task.isCancelled {
                self?.noteActivity()
            }
        }
        await withCheckedContinuation { continuation in
            activity = continuation
        }
        timer.cancel()
    }

    private func noteActivity() {
        updateLeftovers()
        let waiting = activity
        activity = nil
        waiting?.resume()
    }

    private func updateLeftovers() {
        guard !isFinished else { return }
        leftovers.update(
            exhaustive: exhaustivity == .on,
            running: store._runningEffectOrigins.map { describe($0.action) },
            received: recorder.received.map { describe($0.action) },
            location: currentLocation
        )
    }
}

/// Records the actions the test store's reducer processes: the one the test sent, and those received from effects,
/// each with the state after it.
///
/// Threading: main actor.
@MainActor
private final class ActionRecorder<State, Action> {
    struct Entry {
        let action: Action
        let state: State
    }

    var received: [Entry] = []
    var lastAssertedState: State?
    var onReceive: (@MainActor () -> Void)?
    private var expectingSent = false
    private var sentState: State?

    func expectSentAction() {
        expectingSent = true
        sentState = nil
    }

    func takeSentState() -> State? {
        expectingSent = false
        defer { sentState = nil }
        return sentState
    }

    func record(_ action: Action, state: State) {
        if expectingSent {
            expectingSent = false
            sentState = state
        } else {
            received.append(Entry(action: action, state: state))
            onReceive?()
        }
    }
}

/// Routes the store's hooks to the test store that owns it (created before the test store is fully initialised).
///
/// Threading: main actor.
@MainActor
private final class FailureForwarder {
    weak var testStore: (any FailureReporting)?

    func report(_ kind: TestStoreFailure.Kind, _ message: String) {
        testStore?.reportFailure(kind, message)
    }
}

/// What ``FailureForwarder`` calls on its test store.
@MainActor
private protocol FailureReporting: AnyObject {
    func reportFailure(_ kind: TestStoreFailure.Kind, _ message: String)
}

extension TestStore: FailureReporting {
    fileprivate func reportFailure(_ kind: TestStoreFailure.Kind, _ message: String) {
        fail(kind, message)
    }
}

/// What was left over (running effects, unasserted received actions) as of the last assertion, kept so that the
/// test store's `deinit` — which may run on any thread — can report it.
///
/// Threading: `@unchecked Sendable`; all state is guarded by `lock`.
private final class LeftoverReport: @unchecked Sendable {
    private let lock = NSLock()
    private var exhaustive = true
    private var finished = false
    private var running: [String] = []
    private var received: [String] = []
    private var location: Testing.SourceLocation?

    func update(exhaustive: Bool, running: [String], received: [String], location: Testing.SourceLocation) {
        lock.lock()
        defer { lock.unlock() }
        self.exhaustive = exhaustive
        self.running = running
        self.received = received
        self.location = location
    }

    func markFinished() {
        lock.lock()
        finished = true
        lock.unlock()
    }

    func reportIfUnfinished(_ report: (TestStoreFailure) -> Void) {
        lock.lock()
        let (exhaustive, finished, running, received, location) =
            (self.exhaustive, self.finished, self.running, self.received, self.location)
        lock.unlock()
        guard exhaustive, !finished, let location else { return }
        if let message = Self.receivedMessage(received) {
            report(TestStoreFailure(kind: .unexpectedReceivedActions, message: message, sourceLocation: location))
        }
        if let message = Self.runningMessage(running) {
            report(TestStoreFailure(kind: .effectsStillRunning, message: message, sourceLocation: location))
        }
    }

    static func receivedMessage(_ received: [String]) -> String? {
        guard !received.isEmpty else { return nil }
        let one = received.count == 1
        return "\(received.count) received action\(one ? " was" : "s were") not asserted by the end of the test: "
            + received.joined(separator: ", ")
            + ". Assert \(one ? "it" : "them") with receive(_:), or set exhaustivity to .off."
    }

    static func runningMessage(_ running: [String]) -> String? {
        guard !running.isEmpty else { return nil }
        let one = running.count == 1
        return "\(running.count) effect\(one ? " is" : "s are") still running at the end of the test, started by "
            + running.joined(separator: ", ") + ". Cancel \(one ? "it" : "them") or let \(one ? "it" : "them") "
            + "finish (advance the clock, send the action that stops \(one ? "it" : "them")) before the test ends."
    }
}
