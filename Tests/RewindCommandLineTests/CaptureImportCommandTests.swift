import Foundation
import RewindWire
import Testing

/// `rewind import` of capture files (issue 34): files an app's inspector wrote without a daemon, recorded into
/// sessions through the daemon's ingest, run in process.
@Suite("rewind import of capture files")
struct CaptureImportCommandTests {
    /// The state `rewind state ID INDEX --json` prints, parsed; nil (and the error recorded) when it fails.
    private func state(_ id: String, _ index: Int64, data: String) throws -> JSONValue? {
        let run = CommandRun(["state", id, "\(index)", "--json", "--data", data])
        guard run.status == 0, let line = run.out.first else { return nil }
        return try JSONValue(parsing: line)
    }

    /// The rows `rewind sessions --json` lists, parsed.
    private func sessions(data: String) throws -> [JSONValue] {
        let run = CommandRun(["sessions", "--json", "--data", data])
        #expect(run.status == 0, "\(run.err)")
        return try run.out.map { try JSONValue(parsing: $0) }
    }

    /// The session id at the end of an import's output line.
    private func sessionID(_ line: String?) throws -> String {
        try #require(line?.split(separator: " ").last.map(String.init))
    }

    /// Every session file under the data directory, its staging folder included.
    private func sessionFiles(in directory: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: directory.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".rewind") { found.append(path) }
        }
        return found
    }

    @Test("one capture file (found by its first line, whatever its name) gives a session whose state after event N is the app's after action N")
    func oneFile() throws {
        let scratch = Scratch()
        let data = scratch.path("data")
        var app = CapturedApp()
        var file = CaptureFileText(app)
        file.append(actions: app.dispatch(3))
        file.append(.batch(app.dispatch(3)))
        file.append(.goodbye(Goodbye(seq: app.seq)))
        let path = scratch.path("capture.txt")
        try file.write(to: path)

        let run = CommandRun(["import", path, "--data", data])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.count == 1 && run.out[0].hasPrefix(
            "imported 6 events (offline capture of todo, 1 file: 6 actions, 0 lost, ended clean) as session "),
            "\(run.out)")
        let id = try sessionID(run.out.first)
        for n in 0...6 {
            #expect(try state(id, Int64(n), data: data) == app.states[UInt64(n)], "state after \(n)")
        }
        let listed = try sessions(data: data)
        #expect(listed.count == 1)
        #expect(listed.first?["end"] == "clean")
        #expect(listed.first?["actionsLost"] == 0)
        #expect(listed.first?["importedFrom"] == "capture.txt")
        #expect(listed.first?["instance"] == .string(app.app.instance))
        // The session starts when the capture did, not when it was imported.
        #expect(listed.first?["startedAt"] == "2027-01-15T08:00:00Z")
    }

    @Test("two offline parts of one run that follow each other make one session with nothing lost, in part order")
    func twoPartsContinuing() throws {
        let scratch = Scratch()
        let data = scratch.path("data")
        var app = CapturedApp()
        var first = CaptureFileText(app, part: 1)
        first.append(actions: app.dispatch(4))
        first.append(.goodbye(Goodbye(seq: app.seq)))
        var second = CaptureFileText(app, part: 2)
        second.append(.batch(app.dispatch(3)))  // the process died: no goodbye
        try first.write(to: scratch.path("a-1.rewind-capture.jsonl"))
        try second.write(to: scratch.path("a-2.rewind-capture.jsonl"))

        // Given in the wrong order: the parts are sorted by their headers.
        let run = CommandRun(["import", scratch.path("a-2.rewind-capture.jsonl"),
                              scratch.path("a-1.rewind-capture.jsonl"), "--data", data])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.count == 1 && run.out[0].contains("(offline capture of todo, 2 files: 7 actions, 0 lost, "
                                                               + "ended interrupted)"), "\(run.out)")
        let id = try sessionID(run.out.first)
        let listed = try sessions(data: data)
        #expect(listed.count == 1)
        #expect(listed.first?["actionsLost"] == 0)
        #expect(listed.first?["end"] == "interrupted")
        // Rows 1–4: actions 1–4; row 5: the reconnect of part 2; rows 6–8: actions 5–7.
        #expect(listed.first?["events"] == 8)
        #expect(try state(id, 4, data: data) == app.states[4])
        #expect(try state(id, 5, data: data) == app.states[4])
        #expect(try state(id, 6, data: data) == app.states[5])
        #expect(try state(id, 8, data: data) == app.states[7])
    }

    @Test("part 2 alone (part 1 deleted) starts from part 2's state, the actions before it counted lost")
    func laterPartAlone() throws {
        let scratch = Scratch()
        let data = scratch.path("data")
        var app = CapturedApp()
        _ = app.dispatch(10)  // part 1, deleted from the rolling window
        var second = CaptureFileText(app, part: 2)
        second.append(actions: app.dispatch(3))
        second.append(.goodbye(Goodbye(seq: app.seq)))
        let path = scratch.path("a-2.rewind-capture.jsonl")
        try second.write(to: path)

        let run = CommandRun(["import", path, "--data", data])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.first?.contains("3 actions, 10 lost, ended clean") == true, "\(run.out)")
        let id = try sessionID(run.out.first)
        let listed = try sessions(data: data)
        #expect(listed.first?["actionsLost"] == 10)
        // Row 1: the lost actions 1–10 (the state after them is the hello's); rows 2–4: actions 11–13.
        #expect(listed.first?["events"] == 4)
        #expect(try state(id, 0, data: data) == app.states[10])
        #expect(try state(id, 1, data: data) == app.states[10])
        #expect(try state(id, 3, data: data) == app.states[12])
        #expect(try state(id, 4, data: data) == app.states[13])
    }

    @Test("a dropped range leaves its states unknown until the snapshot that closes it")
    func droppedRange() throws {
        let scratch = Scratch()
        let data = scratch.path("data")
        var app = CapturedApp()
        var file = CaptureFileText(app)
        file.append(actions: app.dispatch(2))
        file.append(.dropped(Dropped(from: 3, to: 5)))
        file.append(.batch(app.dispatch(3, withoutPatches: true)))
        file.append(.snapshot(Snapshot(seq: app.seq, state: app.state, reason: "coalesced")))
        file.append(actions: app.dispatch(1))
        file.append(.goodbye(Goodbye(seq: app.seq)))
        let path = scratch.path("drops.rewind-capture.jsonl")
        try file.write(to: path)

        let run = CommandRun(["import", path, "--data", data])
        #expect(run.status == 0, "\(run.err)")
        let id = try sessionID(run.out.first)
        // Rows 1–2: actions 1–2; 3: the dropped range; 4–6: actions 3–5 without states; 7: the snapshot; 8: action 6.
        #expect(try state(id, 2, data: data) == app.states[2])
        for index in 4...6 {
            let unknown = CommandRun(["state", id, "\(index)", "--data", data])
            #expect(unknown.status == 1)
            #expect(unknown.errorText.contains("the state after event \(index) was not recorded"), "\(unknown.err)")
        }
        #expect(try state(id, 7, data: data) == app.states[5])
        #expect(try state(id, 8, data: data) == app.states[6])
    }

    @Test("a directory with two runs (offline parts of one, a triggered capture of another) gives two sessions")
    func directoryOfTwoRuns() throws {
        let scratch = Scratch()
        let data = scratch.path("data")
        let folder = scratch.directory.appendingPathComponent("captures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var one = CapturedApp(instance: "host:1:1800000000000")
        var first = CaptureFileText(one, part: 1)
        first.append(actions: one.dispatch(2))
        first.append(.goodbye(Goodbye(seq: one.seq)))
        var second = CaptureFileText(one, part: 2)
        second.append(actions: one.dispatch(2))
        second.append(.goodbye(Goodbye(seq: one.seq)))
        var two = CapturedApp(instance: "host:2:1800000000000", time: 1_800_000_100)
        _ = two.dispatch(5)
        var triggered = CaptureFileText(two, reason: .trigger, note: "checkout failed")
        triggered.append(actions: two.dispatch(1))
        try first.write(to: folder.appendingPathComponent("one-offline-1.rewind-capture.jsonl").path)
        try second.write(to: folder.appendingPathComponent("one-offline-2.rewind-capture.jsonl").path)
        try triggered.write(to: folder.appendingPathComponent("two-trigger.rewind-capture.jsonl").path)
        try "not a capture".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)

        let run = CommandRun(["import", folder.path, "--data", data])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.count == 2, "\(run.out)")
        #expect(run.out.first?.contains("(offline capture of todo, 2 files: 4 actions, 0 lost, ended clean)") == true,
                "\(run.out)")
        // A triggered capture holds the last actions on purpose: the five before it are not lost.
        #expect(run.out.last?.contains("(trigger capture of todo: \"checkout failed\", 1 file: 1 actions, 0 lost, ended interrupted)")
                == true, "\(run.out)")
        let listed = try sessions(data: data)
        #expect(Set(listed.compactMap { $0["instance"]?.stringValue }) == [one.app.instance, two.app.instance])
        let lastOfOne = try sessionID(run.out.first)
        #expect(try state(lastOfOne, 5, data: data) == one.states[4])
    }

    @Test("an incomplete last line is passed over with a warning; the lines before it are imported")
    func incompleteLastLine() throws {
        let scratch = Scratch()
        let data = scratch.path("data")
        var app = CapturedApp()
        var file = CaptureFileText(app)
        file.append(actions: app.dispatch(4))
        let path = scratch.path("killed.rewind-capture.jsonl")
        try file.write(to: path, cuttingLastLine: true)

        let run = CommandRun(["import", path, "--data", data])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err == ["warning: the last line of \(path) is incomplete (the app stopped while writing it): "
                            + "read the 5 complete lines before it"])
        #expect(run.out.first?.contains("3 actions, 0 lost, ended interrupted") == true, "\(run.out)")
        let id = try sessionID(run.out.first)
        #expect(try state(id, 3, data: data) == app.states[3])
    }

    @Test("a bad header, a line 2 that is not a hello, or a line that does not decode is an error naming the file and line; no session is left")
    func badFiles() throws {
        let scratch = Scratch()
        let data = scratch.directory.appendingPathComponent("data")
        var app = CapturedApp()
        let hello = String(decoding: WireCodec.encode(app.hello), as: UTF8.self)
        let action = String(decoding: WireCodec.encode(.action(app.dispatch(1)[0])), as: UTF8.self)

        let badHeader = scratch.path("header.rewind-capture.jsonl")
        try CaptureFileText(rawLines: [#"{"format":"rewind-capture","version":1,"reason":"offline","createdAt":1}"#,
                                       hello]).write(to: badHeader)
        let headerRun = CommandRun(["import", badHeader, "--data", data.path])
        #expect(headerRun.status == 1)
        #expect(headerRun.err == ["Error: cannot import '\(badHeader)': \(badHeader), line 1: not a capture file's "
                                  + #"header: the header has no "app": {"name", "instance"}"#])

        let newer = scratch.path("newer.rewind-capture.jsonl")
        try CaptureFileText(rawLines: [#"{"format":"rewind-capture","version":9,"app":{"name":"a","instance":"b"},"#
                                       + #""reason":"offline","createdAt":1}"#, hello]).write(to: newer)
        let newerRun = CommandRun(["import", newer, "--data", data.path])
        #expect(newerRun.status == 1)
        #expect(newerRun.errorText.contains("line 1: not a capture file's header: the capture's version 9 is newer"),
                "\(newerRun.err)")

        let noHello = scratch.path("no-hello.rewind-capture.jsonl")
        let withoutHello = CaptureFileText(rawLines: [
            String(decoding: CaptureHeader(app: app.app, reason: .trigger, createdAt: 1).serializedBytes(), as: UTF8.self),
            action,
        ])
        try withoutHello.write(to: noHello)
        let helloRun = CommandRun(["import", noHello, "--data", data.path])
        #expect(helloRun.status == 1)
        #expect(helloRun.errorText.contains("\(noHello), line 2: line 2 must be the capture's hello (the state it "
                                            + "starts from), not a 'action' message"), "\(helloRun.err)")

        // A directory of a good run and a run with a line that does not decode: neither is imported.
        let folder = scratch.directory.appendingPathComponent("captures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var good = CapturedApp(instance: "good")
        var goodFile = CaptureFileText(good)
        goodFile.append(actions: good.dispatch(2))
        try goodFile.write(to: folder.appendingPathComponent("good.rewind-capture.jsonl").path)
        var bad = CapturedApp(instance: "bad")
        var badFile = CaptureFileText(bad)
        badFile.append(actions: bad.dispatch(1))
        badFile.append(rawLine: #"{"type":"action","seq":2}"#)
        badFile.append(actions: bad.dispatch(1))
        let badPath = folder.appendingPathComponent("bad.rewind-capture.jsonl").path
        try badFile.write(to: badPath)
        let lineRun = CommandRun(["import", folder.path, "--data", data.path])
        #expect(lineRun.status == 1)
        #expect(lineRun.errorText.contains("\(badPath), line 4: not a message of the wire protocol: missing_field"),
                "\(lineRun.err)")

        #expect(sessionFiles(in: data) == [], "no session file is left, staged or published")
        #expect(try sessions(data: data.path).isEmpty)
    }

    @Test("an action sent twice is recorded as the ingest records it (an error row), not a failed import")
    func refusedMessage() throws {
        let scratch = Scratch()
        let data = scratch.path("data")
        var app = CapturedApp()
        var file = CaptureFileText(app)
        let events = app.dispatch(2)
        file.append(actions: events)
        file.append(.action(events[1]))
        file.append(actions: app.dispatch(1))
        let path = scratch.path("twice.rewind-capture.jsonl")
        try file.write(to: path)

        let run = CommandRun(["import", path, "--data", data])
        #expect(run.status == 0, "\(run.err)")
        let id = try sessionID(run.out.first)
        #expect(try sessions(data: data).first?["events"] == 4)
        let exported = scratch.path("twice.jsonl")
        let export = CommandRun(["export", id, "--format", "jsonl", "-o", exported, "--data", data])
        #expect(export.status == 0, "\(export.err)")
        let rows = try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n")
        #expect(rows.contains { $0.contains(#""kind":"error""#) && $0.contains(#""label":"repeated""#) }, "\(rows)")
        #expect(try state(id, 4, data: data) == app.states[3])
    }

    @Test("rewind import --help speaks of capture files and directories")
    func help() {
        let run = CommandRun(["import", "--help"])
        #expect(run.status == 0)
        let text = run.out.joined(separator: " ")
        #expect(text.contains("capture") && text.contains("rewind-capture.jsonl") && text.contains("directory"),
                "\(run.out)")
    }

    @Test("a capture file named where a session is expected is imported once, then found again by later commands")
    func captureFileAsSessionArgument() throws {
        let scratch = Scratch()
        let data = scratch.path("data")
        var app = CapturedApp()
        var file = CaptureFileText(app)
        file.append(.batch(app.dispatch(4)))
        file.append(.goodbye(Goodbye(seq: app.seq)))
        let path = scratch.path("todo-offline-1.rewind-capture.jsonl")
        try file.write(to: path)

        let first = CommandRun(["state", path, "4", "--json", "--data", data])
        #expect(first.status == 0, "\(first.err)")
        #expect(try first.out.first.map { try JSONValue(parsing: $0) } == app.states[4])
        #expect(first.err.contains { $0.hasPrefix("imported todo-offline-1.rewind-capture.jsonl (offline capture of todo) as session ") },
                "\(first.err)")
        let again = CommandRun(["state", path, "2", "--json", "--data", data])
        #expect(try again.out.first.map { try JSONValue(parsing: $0) } == app.states[2])
        #expect(!again.err.contains { $0.hasPrefix("imported") }, "the second command finds the first import: \(again.err)")
        let exported = scratch.path("exported.jsonl")
        let export = CommandRun(["export", path, "-o", exported, "--data", data])
        #expect(export.status == 0, "\(export.err)")
        let lines = try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5, "a header and four events: \(lines)")
        #expect(try sessions(data: data).count == 1, "one session for the file, however many commands named it")
        let notACapture = scratch.path("notes.jsonl")
        try "{\"format\":\"something else\"}\n".write(toFile: notACapture, atomically: true, encoding: .utf8)
        let refused = CommandRun(["state", notACapture, "1", "--data", data])
        #expect(refused.status != 0, "a file that is not a capture is not taken for one: \(refused.out)")
    }
}

