// counter: the smallest possible store, reducer and subscription, with the inspector attached.
import Rewind
import RewindInspector
import SampleSupport

let sample = SampleDescription(
    name: "counter",
    summary: "the smallest Rewind app: one number, streamed to the rewind timeline "
        + "(COUNTER_DECREMENT_STEP=N changes the reducer, to see 'rewind verify' catch it)",
    commandHelp: ["increment  (or +)", "decrement  (or -)", "add N", "reset"],
    demoScript: ["increment", "increment", "add 5", "decrement", "increment", "add 10", "reset"]
)
let options = sample.options()  // --help answered before the store, and so its inspector, exists

let store = Store(
    initialState: CounterState(),
    reducer: counterReducer,
    middleware: [Inspector.middleware(name: "counter", configuration: sample.inspectorConfiguration())]
)

await SampleRunner(sample, options: options, store: store, parse: parseCounterCommand).run()
