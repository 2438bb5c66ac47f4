import Foundation
import RewindWire
import Testing

/// `rewind diff A B` and `rewind patch DOC PATCH` on JSON files, run in process.
@Suite("rewind diff and patch on JSON documents")
struct DocumentCommandTests {
    @Test("diff prints the patch that turns A into B")
    func diffPrintsThePatch() throws {
        let scratch = Scratch()
        let a = try scratch.file(#"{"name":"a","items":[1,2,3],"keep":true}"#)
        let b = try scratch.file(#"{"name":"b","items":[1,2,3,4],"keep":true}"#)
        let run = CommandRun(["diff", a, b])
        #expect(run.status == 0)
        let patch = try JSONPatch(json: try JSONValue(parsing: try #require(run.out.first)))
        #expect(try patch.apply(to: try JSONValue(parsing: #"{"name":"a","items":[1,2,3],"keep":true}"#))
                == JSONValue(parsing: #"{"name":"b","items":[1,2,3,4],"keep":true}"#))
        #expect(patch.operations.count == 2)
    }

    @Test("diff reads '-' as standard input")
    func diffReadsStandardInput() throws {
        let scratch = Scratch()
        let run = CommandRun(["diff", "-", try scratch.file(#"{"x":2}"#)], input: #"{"x":1}"#)
        #expect(run.status == 0)
        #expect(run.out == [#"[{"op":"replace","path":"/x","value":2}]"#])
    }

    @Test("diff of equal documents prints an empty patch; --pretty indents it")
    func diffOfEqualDocuments() throws {
        let scratch = Scratch()
        let a = try scratch.file(#"{"x":[1,2]}"#)
        #expect(CommandRun(["diff", a, a]).out == ["[]"])
        let b = try scratch.file(#"{"x":[1,3]}"#)
        let pretty = CommandRun(["diff", a, b, "--pretty"])
        #expect(pretty.status == 0)
        #expect(pretty.out.count > 1, "one value per line: \(pretty.out)")
    }

    @Test("patch prints the patched document")
    func patchPrintsTheDocument() throws {
        let scratch = Scratch()
        let doc = try scratch.file(#"{"x":1}"#)
        let patch = try scratch.file(#"[{"op":"add","path":"/y","value":[true]},{"op":"remove","path":"/x"}]"#)
        let run = CommandRun(["patch", doc, patch])
        #expect(run.status == 0)
        #expect(run.out == [#"{"y":[true]}"#])
    }

    @Test("a failing patch exits 1 naming the operation's index and pointer")
    func failingPatchNamesTheOperation() throws {
        let scratch = Scratch()
        let doc = try scratch.file(#"{"x":1}"#)
        let patch = try scratch.file(#"[{"op":"replace","path":"/x","value":2},{"op":"remove","path":"/missing"}]"#)
        let run = CommandRun(["patch", doc, patch])
        #expect(run.status == 1)
        #expect(run.errorText.contains("1"), "names operation index 1: \(run.errorText)")
        #expect(run.errorText.contains("/missing"), "names the pointer: \(run.errorText)")
        #expect(run.out.isEmpty, "no partial document: \(run.out)")
    }

    @Test("a missing or invalid file is a one-line error naming the file")
    func badFilesAreClearErrors() throws {
        let scratch = Scratch()
        let missing = CommandRun(["diff", "/nonexistent/a.json", "/nonexistent/b.json"])
        #expect(missing.status == 1)
        #expect(missing.err == ["Error: cannot read '/nonexistent/a.json': no such file"])

        let invalid = CommandRun(["diff", try scratch.file(#"{"x":"#), try scratch.file("{}")])
        #expect(invalid.status == 1)
        #expect(invalid.errorText.contains("is not valid JSON"))
        #expect(invalid.errorText.contains("at byte 5"), "says where: \(invalid.errorText)")
    }

    @Test("diff and patch refuse '-' for both files: standard input is read once (issue 31)", arguments: [
        ["diff", "-", "-"], ["patch", "-", "-"],
    ])
    func standardInputOnce(_ command: [String]) throws {
        let run = CommandRun(command, input: #"{"x":1}"#)
        #expect(run.status == 64)
        #expect(run.err.first?.contains("may be '-': standard input is read once") == true, "\(run.err)")
    }

    @Test("patch with a document for a patch says it is not an object but an array of operations (issue 31)")
    func patchThatIsAnObject() throws {
        let scratch = Scratch()
        let doc = try scratch.file(#"{"x":1}"#)
        let run = CommandRun(["patch", doc, doc])
        #expect(run.status == 1)
        #expect(run.errorText.contains("a JSON Patch must be an array of operations, not an object"), "\(run.errorText)")
        #expect(run.errorText.contains(#"[{"op":"replace","path":"/count","value":1}]"#), "shows one: \(run.errorText)")
        #expect(!run.errorText.contains("a object"), "\(run.errorText)")
    }
}
