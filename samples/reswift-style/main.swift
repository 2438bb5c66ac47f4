// reswift-style: a ReSwift-shaped store (untyped actions, middleware) recorded through `Recorder` — no
// `Rewind.Store`. The store offers jump (a state-replacing reducer), dispatch and replay (its reducer is pure).
import Foundation
import RecorderSampleSupport
import RewindInspector

RecordedAction.types = [AddItem.self, RemoveItem.self, ClearCart.self]

/// The store, reachable from the recorder's host once it exists (the host is made before the store's middleware).
final class StoreBox: @unchecked Sendable {  // used on the main actor only
    var store: ReduxStore<CartState>?
}

@MainActor
func makeStore() -> (ReduxStore<CartState>, Recorder<CartState, RecordedAction>) {
    let box = StoreBox()
    var host = RecorderHost<CartState, RecordedAction>(currentState: { box.store?.state })
    host.offerJump { state in box.store?.dispatch(ReplaceState(state: state)) }
    host.offerDispatch { recorded in box.store?.dispatch(recorded.action) }
    host.offerReplay(reducing: { state, recorded in state = cartReducer(action: recorded.action, state: state) },
                     replace: { state in box.store?.dispatch(ReplaceState(state: state)) })
    let initial = CartState()
    let recorder = Recorder(name: "reswift-style", initialState: initial, host: host)
    // The recorder last: it records what reaches the reducer, after the app's own middleware.
    let store = ReduxStore(reducer: replacingState(cartReducer), state: initial,
                           middleware: [droppingEmptyAdds(), recordingMiddleware(recorder)])
    box.store = store
    return (store, recorder)
}

let sample = LineSample(
    name: "reswift-style",
    summary: "a ReSwift-shaped store recorded through Recorder (jump, dispatch and replay offered)",
    commandHelp: ["add NAME N   adds N of NAME", "remove I     removes item I", "clear        empties the cart",
                  "{JSON}       an action as the timeline shows it, e.g. {\"AddItem\":{\"name\":\"tea\",\"quantity\":1}}"]
)
let options = sample.options()  // --help answered before the store, and so its recorder, exists

let (store, recorder) = makeStore()
let printer = JSONLinePrinter()
store.subscribe { state in printer.print(state) }

await LineSampleRunner(sample, options: options, execute: { line in
    let words = line.split(separator: " ").map(String.init)
    switch words.first {
    case "add" where words.count == 3 && Int(words[2]) != nil:
        store.dispatch(AddItem(name: words[1], quantity: Int(words[2])!))
    case "remove" where words.count == 2 && Int(words[1]) != nil:
        store.dispatch(RemoveItem(index: Int(words[1])!))
    case "clear":
        store.dispatch(ClearCart())
    case let first? where first.hasPrefix("{"):
        store.dispatch(try JSONDecoder().decode(RecordedAction.self, from: Data(line.utf8)).action)
    default:
        throw SampleLineError("'\(line)' is not a command (see --help)")
    }
}).run()
