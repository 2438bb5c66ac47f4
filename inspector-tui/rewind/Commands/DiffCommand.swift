import ArgumentParser
import RewindWire

/// `rewind diff A.json B.json`: prints the JSON Patch (RFC 6902) that turns A into B.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the JSON Patch (RFC 6902) that turns one JSON document into another.",
        discussion: "Either file may be '-' for standard input. Prints [] when the documents are equal."
    )

    @Argument(help: "The document to start from ('-' for standard input).")
    var from: String

    @Argument(help: "The document to arrive at ('-' for standard input).")
    var to: String

    @Flag(name: .long, help: "Pretty-print the patch.")
    var pretty = false

    func run() throws {
        let a = try InputFile.readJSON(from)
        let b = try InputFile.readJSON(to)
        let patch = JSONPatch.diff(from: a, to: b)
        print(pretty ? patch.json.prettyPrinted() : patch.json.serialized())
    }
}
