// The adapter a TCA app copies (docs/INTEGRATIONS.md, "The Composable Architecture"): a reducer wrapper that
// records every action with the state after it, and puts a state in place for the one action case the recorder
// sends on jump.
import RewindInspector

/// Wraps `base`: an action for which `stateToSet` returns a state replaces the state (and is not recorded: the
/// recorder reports the jump itself); every other action runs through `base` and is recorded with the state after.
struct RecordingReducer<Base: Reducer>: Reducer where Base.State: Sendable {
    let base: Base
    let recorder: Recorder<Base.State, Base.Action>
    let stateToSet: (Base.Action) -> Base.State?

    func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
        if let replacement = stateToSet(action) {
            state = replacement
            return .none
        }
        let effect = base.reduce(into: &state, action: action)
        recorder.record(action, state: state)
        return effect
    }
}
