// login: screen modules and a flow from the seeds — a login screen (username, password, message) talking to a
// simulated API with latency and failures, a home screen and a profile — with the navigation state in the app
// state, and the password redacted before anything reaches the inspector.
import Foundation
import Rewind
import RewindInspector
import SampleSupport

var arguments = Array(CommandLine.arguments.dropFirst())
let options: LoginOptions
do {
    options = try LoginOptions(extractingFrom: &arguments)
} catch {
    FileHandle.standardError.write(Data("login: \(error)\nRun 'login --help' for usage.\n".utf8))
    exit(2)
}

let sample = SampleDescription(
    name: "login",
    summary: """
        screen modules coordinated by a flow, navigation in the app state, an API with latency and failures,
        and the password redacted from the inspector.
        \(LoginOptions.help)
        With --script, time is instant (the API answers at once), so a script gives the same session every time.
        """,
    commandHelp: LoginCommands.help,
    demoScript: LoginCommands.demoScript
)
let sampleOptions = sample.options(arguments)  // --help answered before the store, and so its inspector, exists

let clock: any EffectClock = sampleOptions.script != nil ? InstantClock() : SystemClock()
let api = SimulatedAuthenticationAPI(clock: clock, latency: options.latency, failureRate: options.failureRate,
                                     seed: options.seed)
let flow = LoginFlow()
let store = Store(
    initialState: LoginAppState(),
    reducer: LoginApp.reducer(login: flow.loginOutput, home: flow.homeOutput),
    interpreter: .live(api: api),
    middleware: [Inspector.middleware(name: "login", redacting: ["**.password"],
                                      configuration: sample.inspectorConfiguration())],
    configuration: StoreConfiguration(clock: clock)
)
let context = LoginFlowContext(store: store)
flow.start(with: context)

await SampleRunner(sample, options: sampleOptions, store: store,
                   parse: LoginCommands(store: store, navigator: context.navigator).parse).run()
