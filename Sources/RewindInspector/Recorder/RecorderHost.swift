import RewindWire

/// What the daemon may do to an app recorded with a ``Recorder``: the host's side of the seam.
///
/// A host always lets the recorder read its current state (for `resync` and for the state that closes a coalesced
/// range). Each ability it offers besides becomes a `hello` capability (PROTOCOL.md §4); an ability not offered is
/// not advertised, and the daemon and the timeline refuse it for the session, saying why:
///
/// - ``offerJump(_:)`` (`jump`): replace the state with one decoded from the timeline. Needs a `Decodable` state.
/// - ``offerDispatch(_:)`` (`dispatch`): dispatch an action decoded from the timeline. Needs a `Decodable` action.
/// - ``offerReplay(_:)`` (`replay`, which the timeline's skip and `rewind verify` also use): run actions through
///   the reducer with effects muted. Needs a `Decodable` state and action.
///
/// ```swift
/// var host = RecorderHost<AppState, AppAction>(currentState: { store.state })
/// host.offerJump { store.state = $0 }
/// host.offerDispatch { store.send($0) }
/// ```
///
/// Threading: every closure is called only on ``executor`` (by default the main actor), one at a time. The value
/// itself is built on any thread and handed to ``Recorder/init(name:initialState:host:redacting:configuration:transport:)``.
public struct RecorderHost<State, Action> {
    /// Where the closures are called.
    public let executor: RecorderExecutor
    /// The host's state now; nil once the store is gone.
    let currentState: () -> State?
    /// Decodes a state the daemon pushes (set by ``offerJump(_:)`` and ``offerReplay(_:)``).
    var decodeState: ((JSONValue) throws -> State)?
    /// Decodes an action the daemon pushes (set by ``offerDispatch(_:)`` and ``offerReplay(_:)``).
    var decodeAction: ((JSONValue) throws -> Action)?
    /// Replaces the state (the `jump` ability).
    var jump: ((State) -> Void)?
    /// Dispatches an action (the `dispatch` ability).
    var dispatch: ((Action) -> Void)?
    /// Runs actions from a state with effects muted (the `replay` ability).
    var replay: ((State, [Action], (Int, State) -> Void) -> State?)?

    /// A host that lets the daemon watch only: no jump, no dispatch, no replay until offered.
    ///
    /// - Parameters:
    ///   - executor: Where commands are applied and `currentState` is read (the host's serial context).
    ///   - currentState: The host's state now, or nil once it is gone.
    public init(executor: RecorderExecutor = .mainActor, currentState: @escaping () -> State?) {
        self.executor = executor
        self.currentState = currentState
    }

    /// The `hello` capabilities this host offers, in protocol order: `jump`, `dispatch`, `replay`, then `batch`
    /// (the recorder always sends batches).
    public var capabilities: [String] {
        var offered: [String] = []
        if jump != nil { offered.append(WireCapability.jump) }
        if dispatch != nil { offered.append(WireCapability.dispatch) }
        if replay != nil { offered.append(WireCapability.replay) }
        offered.append(WireCapability.batch)
        offered.append(WireCapability.ack)
        return offered
    }
}

extension RecorderHost where State: Decodable {
    /// Offers `jump`: `replace` puts a state decoded from the timeline in place (notifying the host's observers;
    /// no reducer runs). Called on ``executor``.
    public mutating func offerJump(_ replace: @escaping (State) -> Void) {
        decodeState = RecorderCoding<State, Action>.stateDecoder()
        jump = replace
    }
}

extension RecorderHost where Action: Decodable {
    /// Offers `dispatch`: `send` dispatches an action decoded from the timeline through the host's store (its
    /// middleware and effects included, so it is recorded like any other). Called on ``executor``.
    public mutating func offerDispatch(_ send: @escaping (Action) -> Void) {
        decodeAction = RecorderCoding<State, Action>.actionDecoder()
        dispatch = send
    }
}

extension RecorderHost where State: Decodable, Action: Decodable {
    /// Offers `replay` (and so the timeline's skip and `rewind verify`): `run(initial, actions, each)` sets the
    /// host's state to `initial`, runs each action through its reducer with every effect muted, calls `each` with
    /// the action's index and the state after it, leaves the final state in place and returns it (nil when it
    /// cannot run now). Called on ``executor``.
    public mutating func offerReplay(_ run: @escaping (_ initial: State, _ actions: [Action],
                                                      _ each: (Int, State) -> Void) -> State?) {
        decodeState = RecorderCoding<State, Action>.stateDecoder()
        decodeAction = RecorderCoding<State, Action>.actionDecoder()
        replay = run
    }

    /// Offers `replay` for a host whose reducer is a pure function: each action is applied to a copy of the state
    /// with `reduce` (which must not run effects), and the final state is put in place with `replace`.
    public mutating func offerReplay(reducing reduce: @escaping (inout State, Action) -> Void,
                                     replace: @escaping (State) -> Void) {
        offerReplay { initial, actions, each in
            var state = initial
            for (index, action) in actions.enumerated() {
                reduce(&state, action)
                each(index, state)
            }
            replace(state)
            return state
        }
    }
}
