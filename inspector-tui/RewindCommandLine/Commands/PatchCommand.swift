import ArgumentParser
import RewindWire

/// `rewind patch DOC.json PATCH.json`: prints the document with the patch applied.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Apply a JSON Patch (RFC 6902) to a JSON document and print the result.",
        discussion: """
            Either file may be '-' for standard input. A patch that does not apply exits with status 1 and names \
            the failing operation's index and pointer.
            """
    )

    @Argument(help: "The document to patch ('-' for standard input).")
    var document: String

    @Argument(help: "The JSON Patch: an array of operations ('-' for standard input).")
    var patch: String

    @Flag(name: .long, help: "Pretty-print the result.")
    var pretty = false

    func validate() throws {
        if document == "-" && patch == "-" {
            throw ValidationError("only one of DOCUMENT and PATCH may be '-': standard input is read once (give the "
                + "other as a file)")
        }
    }

    func run() throws {
        let doc = try InputFile.readJSON(document)
        let patchJSON = try InputFile.readJSON(patch)
        let operations: JSONPatch
        do {
            operations = try JSONPatch(json: patchJSON)
        } catch {
            throw CommandError("'\(patch == "-" ? "standard input" : patch)' is not a JSON Patch: \(error) (a patch "
                + #"looks like [{"op":"replace","path":"/count","value":1}])"#)
        }
        do {
            let result = try operations.apply(to: doc)
            CommandStreams.current.printLine(pretty ? result.prettyPrinted() : result.serialized())
        } catch {
            throw CommandError("the patch does not apply: \(error)")
        }
    }
}
