// tca-style: a TCA-shaped reducer and store recorded through `Recorder` — no `Rewind.Store`. Its actions are not
// `Codable` (a closure, a `Result` with `any Error`), so the timeline can watch and jump (through the one
// `recorderSetState` case) but not dispatch or replay.
import Foundation
import RecorderSampleSupport
import RewindInspector

/// The store, reachable from the recorder's host once it exists.
final class StoreBox: @unchecked Sendable {  // used on the main actor only
    var store: ComposableStore<CounterState, CounterAction>?
}

@MainActor
func makeStore() -> ComposableStore<CounterState, CounterAction> {
    let box = StoreBox()
    var host = RecorderHost<CounterState, CounterAction>(currentState: {
        MainActor.assumeIsolated { box.store?.state }
    })
    host.offerJump { state in MainActor.assumeIsolated { box.store?.send(.recorderSetState(state)) } }
    let initial = CounterState()
    let recorder = Recorder(name: "tca-style", initialState: initial, host: host)
    let reducer = RecordingReducer(base: counterReducer, recorder: recorder) { action in
        if case .recorderSetState(let state) = action { return state }
        return nil
    }
    let store = ComposableStore(initialState: initial, reducer: reducer)
    box.store = store
    return store
}

let sample = LineSample(
    name: "tca-style",
    summary: "a TCA-shaped reducer with non-Codable actions, recorded through Recorder (jump only)",
    commandHelp: ["increment    adds the step", "decrement    subtracts the step",
                  "fact         an effect that answers with a Result (a failure below 0)",
                  "step N       a binding action (a closure) setting the step"]
)
let options = sample.options()  // --help answered before the store, and so its recorder, exists

let store = makeStore()
let printer = JSONLinePrinter()
store.onChange = { state in printer.print(state) }

await LineSampleRunner(sample, options: options, execute: { line in
    let words = line.split(separator: " ").map(String.init)
    switch words.first {
    case "increment": store.send(.increment)
    case "decrement": store.send(.decrement)
    case "fact": store.send(.factButtonTapped)
    case "step" where words.count == 2 && Int(words[1]) != nil:
        let step = Int(words[1])!
        store.send(.binding { $0.step = step })
    default:
        throw SampleLineError("'\(line)' is not a command (see --help)")
    }
    await store.settle()
}).run()
