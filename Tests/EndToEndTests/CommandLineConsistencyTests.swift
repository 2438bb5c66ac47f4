import Foundation
@testable import RewindDaemon
@testable import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The `rewind` executable answers the same question the same way from one command to the next (issue 22, "One
/// command line"): session ids and their prefixes, missing directories, read-only reading, mistyped commands, a
/// busy port, a failing app under `verify`, a saved session replayed without `--into`.
@Suite("rewind command line: one command line")
struct CommandLineConsistencyTests {
    private func file(_ text: String, name: String = "rewind-cli-\(UUID()).json") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func rewind(_ arguments: [String], timeout: Double = 20) throws -> (status: Int32?, out: [String], err: String) {
        let run = try RewindRun(arguments, timeout: timeout)
        return (run.status, run.stdout, run.stderrText)
    }

    /// A counter app of `harness` that ran `script` (and stays connected with `stay`), and its session.
    private func counter(_ harness: DaemonHarness, _ script: String, stay: Bool,
                         previous: Int = 0) throws -> (app: ChildProcess, session: SessionID) {
        let app = try ChildProcess(Executables.path("counter"),
                                   ["--script", try file(script)] + (stay ? ["--stay"] : []),
                                   environment: ["REWIND_URL": harness.url])
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(15))
        while Date() < deadline && harness.daemon.sessions.count <= previous { usleep(10_000) }
        let session = try #require(harness.daemon.sessions.last { $0.identity.name == "counter" })
        _ = harness.waitForSession(events: 1, app: "counter")
        return (app, session.id)
    }

    private func files(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("jump, dispatch, skip, replay and tail take a unique prefix; an ambiguous one names the candidates")
    func prefixesReachTheLiveApp() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let port = "\(harness.port)"
        let (app, id) = try counter(harness, "add 2\n", stay: true)
        defer { app.closeInput() }
        let prefix = String(id.rawValue.prefix(id.rawValue.count - 4))

        let observers = harness.daemon.events.observerCount
        let tail = try ChildProcess(Executables.path("rewind"), ["tail", prefix, "--json", "--port", port])
        try #require(harness.waitForEventObservers(observers + 1), "tail never subscribed: \(tail.stderrLines)")
        let jump = try rewind(["jump", prefix, "0", "--port", port])
        #expect(jump.status == 0, "\(jump.err)")
        #expect(jump.out.first?.hasPrefix(id.rawValue) == true, "names the whole id: \(jump.out)")
        #expect(app.waitForLine(timeout: 5) { $0 == #"{"count":0}"# } != nil)
        let dispatch = try rewind(["dispatch", prefix, #"{"add":{"_0":40}}"#, "--port", port])
        #expect(dispatch.status == 0, "\(dispatch.err)")
        #expect(app.waitForLine(timeout: 5) { $0 == #"{"count":40}"# } != nil)
        #expect(tail.waitForLine(timeout: 5) { $0.contains(#""kind":"dispatch""#) || $0.contains(#""label":"add""#) } != nil,
                "tail PREFIX streams the session's events")
        let skip = try rewind(["skip", prefix, "--branch", "0", "--port", port])
        #expect(skip.status == 0, "\(skip.err)")
        let replay = try rewind(["replay", prefix, "--port", port])
        #expect(replay.status == 0, "\(replay.err)")
        #expect(replay.out.first?.contains("of \(id.rawValue) into \(id.rawValue)") == true, "\(replay.out)")

        // A second session: the prefix common to both ids is ambiguous, and the error lists both.
        let (other, otherID) = try counter(harness, "increment\n", stay: true, previous: 1)
        defer { other.closeInput() }
        let common = String(zip(id.rawValue, otherID.rawValue).prefix { $0 == $1 }.map(\.0))
        for command in [["jump", common, "1"], ["dispatch", common, "{}"], ["tail", common]] {
            let run = try rewind(command + ["--port", port], timeout: 10)
            #expect(run.status == 1, "\(command[0]) \(common)")
            #expect(run.err.contains("ambiguous") && run.err.contains(id.rawValue) && run.err.contains(otherID.rawValue),
                    "\(command[0]): \(run.err)")
        }
    }

    @Test("an unknown id fails at once (tail no longer waits forever), and an ended session says it has ended")
    func unknownAndEndedIDsFailAtOnce() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let port = "\(harness.port)"
        let started = Date()
        let tail = try rewind(["tail", "nosuch", "--port", port], timeout: 10)
        #expect(tail.status == 1, "tail of an unknown session ends")
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(5))
        #expect(tail.err.contains(#"no session "nosuch""#) && tail.err.contains("127.0.0.1:\(port)"), "\(tail.err)")

        let (app, id) = try counter(harness, "increment\n", stay: false)
        #expect(app.waitForExit() == 0)
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
        while Date() < deadline && harness.daemon.sessions.contains(where: \.isLive) { usleep(10_000) }
        for command in [["jump", id.rawValue, "1"], ["dispatch", id.rawValue, "{}"], ["tail", id.rawValue],
                        ["skip", id.rawValue, "1"]] {
            let run = try rewind(command + ["--port", port], timeout: 10)
            #expect(run.status == 1, "\(command[0])")
            #expect(run.err.contains("has ended"), "\(command[0]): \(run.err)")
            // Issue 31: the suggested command must work as printed: this daemon's port and data directory.
            #expect(run.err.contains("'rewind open \(id.rawValue) --port \(port) --data \(harness.dataDirectory.path)'"),
                    "\(command[0]): \(run.err)")
        }
    }

    @Test("replay of a saved session without --into says to use --into; with --into it replays")
    func replaySavedNeedsInto() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let port = "\(harness.port)"
        let (saved, savedID) = try counter(harness, "add 3\nadd 4\n", stay: false)
        #expect(saved.waitForExit() == 0)
        let (live, liveID) = try counter(harness, "increment\n", stay: true, previous: 1)
        defer { live.closeInput() }
        let savedPrefix = String(savedID.rawValue.prefix(savedID.rawValue.count - 2))

        let refused = try rewind(["replay", savedPrefix, "--port", port])
        #expect(refused.status == 1)
        #expect(refused.err.contains("--into") && refused.err.contains(liveID.rawValue), "\(refused.err)")
        let replayed = try rewind(["replay", savedPrefix, "--into", String(liveID.rawValue.prefix(liveID.rawValue.count - 2)),
                                   "--port", port])
        #expect(replayed.status == 0, "\(replayed.err)")
        #expect(live.waitForLine(timeout: 5) { $0 == #"{"count":7}"# } != nil)
    }

    @Test("read-only commands create no directory, name a wrong --data, and leave no -wal/-shm beside closed sessions")
    func readOnlyCommandsLeaveNoTrace() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let (app, id) = try counter(harness, "increment\nadd 4\n", stay: false)
        #expect(app.waitForExit() == 0)
        _ = harness.waitForSession(events: 2, app: "counter")
        harness.stop()
        let data = harness.dataDirectory
        let before = files(in: data)
        #expect(before == ["\(id.rawValue).rewind"], "a closed session is one file: \(before)")

        let prefix = String(id.rawValue.prefix(12))
        let listed = try rewind(["sessions", "--data", data.path])
        #expect(listed.status == 0)
        // Issue 31: the ids are UTC; the STARTED column is local time and says its offset (…  +01:00).
        let row = try #require(listed.out.first { $0.hasPrefix(id.rawValue) })
        #expect(row.range(of: #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d"#, options: .regularExpression) != nil,
                "\(row)")
        let export = try rewind(["export", prefix, "--data", data.path])
        #expect(export.status == 0, "\(export.err)")
        #expect(export.out.count == 3)
        #expect(files(in: data) == before, "reading left \(files(in: data))")

        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-missing-\(UUID())/sessions")
        for command in [["export", prefix, "--data", missing.path], ["sessions", "--data", missing.path],
                        ["verify", prefix, "--data", missing.path, "--", "/bin/true"]] {
            let run = try rewind(command)
            #expect(run.status == 1, "\(command[0])")
            #expect(run.err.contains(missing.path) && run.err.contains("does not exist"), "\(command[0]): \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path),
                    "\(command[0]) created \(missing.path)")
        }
        let unknown = try rewind(["export", "nosuch", "--data", data.path])
        #expect(unknown.status == 1)
        #expect(unknown.err.contains(data.standardizedFileURL.path), "names the directory: \(unknown.err)")
    }

    @Test("--version answers; a mistyped command gets 'did you mean' instead of the serve usage")
    func versionAndSuggestions() throws {
        let version = try rewind(["--version"])
        #expect(version.status == 0)
        #expect(version.out.first?.contains("wire protocol \(WireProtocol.version)") == true, "\(version.out)")

        let typo = try rewind(["sesions"])
        #expect(typo.status == 64)
        #expect(typo.err.contains("Did you mean 'sessions'?"), "\(typo.err)")
        #expect(!typo.err.contains("Usage: rewind serve"), "no serve usage: \(typo.err)")
        let nothingClose = try rewind(["frobnicate"])
        #expect(nothingClose.status == 64)
        #expect(nothingClose.err.contains("is not a rewind command"), "\(nothingClose.err)")
    }

    @Test("serve on a port another rewind holds says so and how to watch it")
    func busyPortNamesTheOtherRewind() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-busy-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try rewind(["serve", "--headless", "--port", "\(harness.port)", "--data", directory.path], timeout: 10)
        #expect(run.status == 1)
        #expect(run.err.contains("another rewind is probably running there"), "\(run.err)")
        #expect(run.err.contains("rewind open") && run.err.contains("--port \(harness.port)"), "\(run.err)")
    }

    @Test("serve on a busy port, with another --data than the rewind there: the hints name that rewind's directory")
    func busyPortNamesTheOtherDirectory() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let session = try #require(try app.hello(AppFrames.hello(name: "elsewhere")))
        #expect(harness.waitForSession() != nil)
        let mine = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-busy-\(UUID())")
        defer { try? FileManager.default.removeItem(at: mine) }
        let run = try rewind(["serve", "--headless", "--port", "\(harness.port)", "--data", mine.path], timeout: 10)
        let theirs = harness.dataDirectory.path
        #expect(run.status == 1)
        #expect(run.err.contains("'rewind open \(session) --port \(harness.port) --data \(theirs)'"), "\(run.err)")
        #expect(run.err.contains("'rewind sessions --data \(theirs)'"), "\(run.err)")
        #expect(run.err.contains("it records into \(theirs), not \(mine.path)"), "\(run.err)")
        #expect(!run.err.contains("--data \(mine.path)"), "never the directory it does not record into: \(run.err)")
    }

    @Test("serve into a data directory other users can write warns, naming the fix; rewind's own 0700 one does not")
    func worldWritableDataWarns() throws {
        for (mode, warns) in [(0o777 as mode_t, true), (0o700 as mode_t, false)] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-ww-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            chmod(directory.path, mode)
            let serve = try DaemonProcess(dataDirectory: directory, startTimeout: nil).process
            #expect(serve.waitForLine(stderr: true) { $0.contains("listening on") } != nil, "\(serve.stderrLines)")
            kill(serve.pid, SIGTERM)
            #expect(serve.waitForExit() == 0)
            let warning = "rewind: warning: \(directory.path) is writable by every user: they can change, replace or "
                + "delete its sessions (chmod go-w \(directory.path), or use another --data)"
            #expect(serve.stderrLines.contains(warning) == warns, "mode \(String(mode, radix: 8)): \(serve.stderrLines)")
        }
    }

    @Test("rewind sessions names a damaged file with what is wrong and what to do; the listing says none is readable")
    func damagedFileIsNamed() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-dmg-\(UUID())")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let file = data.appendingPathComponent("20261129-140001-counter-57a8e9.rewind")
        try Data("garbage garbage".utf8).write(to: file)
        let run = try rewind(["sessions", "--data", data.path])
        #expect(run.status == 0)
        #expect(run.out == ["No readable sessions in \(data.path) (1 unreadable file, on standard error)."], "\(run.out)")
        #expect(run.err.contains("rewind: left out: \(file.path) is not a readable Rewind session"), "\(run.err)")
        #expect(run.err.contains("(move it out of \(data.path), or delete it)"), "\(run.err)")
    }

    @Test("rewind (the timeline) on a busy port without a terminal never asks to attach: it says so and exits 1")
    func busyPortWithoutATerminalNeverAsks() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let session = try #require(try app.hello(AppFrames.hello(name: "elsewhere")))
        #expect(harness.waitForSession() != nil)
        // No --headless: the command that asks in a terminal. Standard input stays open: an answer it waited for
        // would never come, and the run would time out.
        let process = try ChildProcess(Executables.path("rewind"),
                                       ["--port", "\(harness.port)", "--data", harness.dataDirectory.path])
        defer { process.closeInput() }
        let status = process.waitForExit(timeout: 10)
        let err = process.stderrLines.joined(separator: "\n")
        #expect(status == 1, "\(err)")
        #expect(err.contains("another rewind is probably running there") && err.contains("with 1 live session"), "\(err)")
        #expect(err.contains("'rewind open \(session) --port \(harness.port) --data \(harness.dataDirectory.path)'"),
                "\(err)")
        #expect(!err.contains("[Y/n]") && process.stdoutLines.isEmpty, "no question: \(err) \(process.stdoutLines)")
    }

    @Test("sessions --delete removes a saved session (by prefix), never one being recorded; --prune --older-than removes the sessions that ended before")
    func deleteAndPrune() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-prune-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let day = 86_400.0
        func session(_ name: String, endedDaysAgo: Double?) throws -> (SessionRecording, SessionID) {
            // A live one started 20 days ago: old enough to prune, were it not being recorded.
            let started = Date().addingTimeInterval(-(endedDaysAgo ?? 20) * day - 60)
            let recording = try store.createSession(appName: name, protocolVersion: 1, initialState: ["n": 0],
                                                    startedAt: started)
            recording.append(NewEvent(appSeq: 1, time: started.timeIntervalSince1970 + 1, label: "tick",
                                      action: ["n": 1], patch: JSONPatch()), stateAfter: ["n": 0])
            if let endedDaysAgo {
                recording.finish(endState: .clean, endedAt: Date().addingTimeInterval(-endedDaysAgo * day))
            } else {
                recording.flush()
            }
            return (recording, recording.id)
        }
        let (_, old) = try session("old", endedDaysAgo: 10)
        let (_, older) = try session("older", endedDaysAgo: 30)
        let (_, recent) = try session("recent", endedDaysAgo: 1)
        let (live, recording) = try session("live", endedDaysAgo: nil)
        defer { live.finish(endState: .clean) }
        let data = ["--data", directory.path]

        let refused = try rewind(["sessions", "--delete", recording.rawValue] + data)
        #expect(refused.status == 1 && refused.err.contains("is being recorded by a running rewind"), "\(refused.err)")
        let pruned = try rewind(["sessions", "--prune", "--older-than", "7d"] + data)
        #expect(pruned.status == 0, "\(pruned.err)")
        #expect(pruned.out.contains { $0.hasPrefix("deleted \(old) (old, 1 event, ") }, "\(pruned.out)")
        #expect(pruned.out.contains { $0.hasPrefix("deleted \(older) (older") }, "\(pruned.out)")
        #expect(pruned.out.last?.hasPrefix("pruned 2 sessions older than 7d") == true
                && pruned.out.last?.hasSuffix("; kept \(recording), being recorded") == true, "\(pruned.out)")
        let left = Set(files(in: directory).filter { $0.hasSuffix(".rewind") })
        #expect(left == ["\(recent).rewind", "\(recording).rewind"], "\(files(in: directory))")
        #expect(!files(in: directory).contains { $0.hasPrefix(old.rawValue) || $0.hasPrefix(older.rawValue) },
                "no file of a pruned session is left: \(files(in: directory))")

        let deleted = try rewind(["sessions", "--delete", String(recent.rawValue.dropLast(3))] + data)
        #expect(deleted.status == 0 && deleted.out.first?.hasPrefix("deleted \(recent) (recent, 1 event, ") == true,
                "\(deleted.out) \(deleted.err)")
        #expect(!files(in: directory).contains { $0.hasPrefix(recent.rawValue) }, "\(files(in: directory))")
        #expect(files(in: directory).contains("\(recording).rewind"), "the live session stays")

        for (arguments, message) in [(["--prune"], "--prune needs --older-than"),
                                     (["--prune", "--older-than", "7 days"], "an age is a number and a unit"),
                                     (["--delete", "x", "--json"], "does not go with --delete")] {
            let run = try rewind(["sessions"] + arguments + data)
            #expect(run.status == 64 && run.err.contains(message), "\(arguments): \(run.err)")
        }
    }

    @Test("verify shows the app's standard error when the app fails")
    func verifyShowsTheAppsErrors() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let (app, id) = try counter(harness, "increment\n", stay: false)
        #expect(app.waitForExit() == 0)
        let run = try rewind(["verify", id.rawValue, "--data", harness.dataDirectory.path, "--connect-timeout", "5", "--",
                              "/bin/sh", "-c", "echo 'cannot open config.json' >&2; exit 3"])
        #expect(run.status == 1)
        #expect(run.err.contains("exited with status 3"), "\(run.err)")
        #expect(run.err.contains("cannot open config.json"), "shows the app's standard error: \(run.err)")
    }
}
