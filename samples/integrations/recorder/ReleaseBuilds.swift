// docs/INTEGRATIONS.md, verbatim (IntegrationSnippetTests keeps the two equal): edit both together.
import Rewind
#if DEBUG
import RewindInspector
let inspection: [Middleware<AppState, AppAction>] = [Inspector.middleware(name: "MyApp")]
#else
let inspection: [Middleware<AppState, AppAction>] = []
#endif
