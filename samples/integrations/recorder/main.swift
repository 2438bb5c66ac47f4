// docs/INTEGRATIONS.md, verbatim (IntegrationSnippetTests keeps the two equal): edit both together.
import RewindInspector

var host = RecorderHost<AppState, AppAction>(currentState: { model.state })   // what the daemon may read
host.offerJump { model.state = $0 }              // `jump`: needs a Decodable state
host.offerDispatch { model.send($0) }            // `dispatch`: needs a Decodable action
host.offerReplay(reducing: { state, action in state = reduce(state, action) },   // `replay`, skip, `rewind verify`:
                 replace: { model.state = $0 })                                  // a pure reducer, effects muted
let recorder = Recorder(name: "my-app", initialState: model.state, host: host, redacting: ["**.password"])

// after every action, on the store's thread:
recorder.record(action, state: model.state)
