// The todo sample: a list app whose side effects are values performed by an interpreter — saving and loading a JSON file,
// ids from a generator — with a debounced search; every dependency (file system, clock, ids) injected here, at launch.
import Foundation
import Rewind
import RewindInspector
import SampleSupport

var arguments = Array(CommandLine.arguments.dropFirst())
var file = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".rewind-todo.json").path
if let index = arguments.firstIndex(of: "--file") {
    guard index + 1 < arguments.count else {
        FileHandle.standardError.write(Data("todo: --file needs a path\n".utf8))
        exit(2)
    }
    file = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
}

let sample = SampleDescription(
    name: "todo",
    summary: """
        a todo list with effects as values: save and load a JSON file, a debounced search, ids from a generator.
          --file PATH   the list's file (default ~/.rewind-todo.json)
        With --script, time is instant (the debounce ends at once), so a script gives the same session every time.
        """,
    commandHelp: TodoCommands.help,
    demoScript: TodoCommands.demoScript
)
let options = sample.options(arguments)  // --help answered before the store, and so its inspector, exists

let clock: any EffectClock = options.script != nil ? InstantClock() : SystemClock()
let store = Store(
    initialState: TodoState(),
    reducer: todoReducer,
    interpreter: .live(file: file, fileSystem: LocalFileSystem(), ids: SequentialIDs()),
    middleware: [Inspector.middleware(name: "todo", configuration: sample.inspectorConfiguration())],
    configuration: StoreConfiguration(clock: clock)
)
let commands = TodoCommands(store: store)

await SampleRunner(sample, options: options, store: store, parse: commands.parse).run()
