// counter: the smallest possible store, reducer and subscription, with the inspector attached.
import Rewind
import RewindInspector
import SampleSupport

let store = Store(
    initialState: CounterState(),
    reducer: counterReducer,
    middleware: [Inspector.middleware(name: "counter")]
)

await SampleRunner(
    name: "counter",
    summary: "the smallest Rewind app: one number, streamed to the rewind timeline "
        + "(COUNTER_DECREMENT_STEP=N changes the reducer, to see 'rewind verify' catch it)",
    commandHelp: ["increment  (or +)", "decrement  (or -)", "add N", "reset"],
    demoScript: ["increment", "increment", "add 5", "decrement", "increment", "add 10", "reset"],
    store: store,
    parse: parseCounterCommand
).run()
