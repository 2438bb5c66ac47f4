import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// `rewind mcp` driven by a real, independent MCP client: the official Python SDK (`mcp` on PyPI), which `make
/// test` installs into `.build-venv/mcp` (`make mcp-client`). Its answers are checked against `rewind state`,
/// `diff` and `history` on the same session.
///
/// Without that client the suite is skipped, saying so — except under `CI=true`, where its absence fails.
@Suite("rewind mcp, through the Python MCP SDK",
       .enabled(if: PythonMCPClient.python != nil || PythonMCPClient.required, PythonMCPClient.absence))
struct McpServerTests {
    /// A data directory with one session of a shopping cart whose total goes negative at event 3 (a discount).
    final class CartSession: @unchecked Sendable {
        // Immutable after init; the directory is removed in deinit.
        let directory: URL
        let id: SessionID

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-mcp-\(UUID())")
            let store = try SessionStore(directory: directory)
            var state: JSONValue = ["cart": ["items": [], "total": 0], "user": "ann",
                                    "notes": .string(String(repeating: "n", count: 3_000))]
            let recording = try store.createSession(appName: "shop", protocolVersion: 1, initialState: state)
            func action(_ label: String, _ action: JSONValue, _ operations: [JSONPatchOperation]) throws {
                let before = state
                try JSONPatch(operations).apply(to: &state)
                recording.append(NewEvent(kind: .action, label: label, action: action,
                                          patch: JSONPatch.diff(from: before, to: state), reducerMicros: 12),
                                 stateAfter: state)
            }
            let total = try JSONPointer("/cart/total")
            try action("cart/add", ["add": ["name": "apple", "price": 3]],
                       [.add(path: try JSONPointer("/cart/items/0"), value: "apple"), .replace(path: total, value: 3)])
            try action("cart/add", ["add": ["name": "pear", "price": 2]],
                       [.add(path: try JSONPointer("/cart/items/1"), value: "pear"), .replace(path: total, value: 5)])
            try action("cart/discount", ["discount": ["percent": 200]], [.replace(path: total, value: -5)])
            try action("user/rename", ["rename": "bob"], [.replace(path: try JSONPointer("/user"), value: "bob")])
            try action("cart/add", ["add": ["name": "fig", "price": 1]],
                       [.add(path: try JSONPointer("/cart/items/2"), value: "fig"), .replace(path: total, value: -4)])
            recording.finish(endState: .clean)
            id = recording.id
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// What the client printed: the tools, resources and prompts listed, then one answer per call.
    struct Conversation {
        var tools: [String]
        var resources: [String]
        var prompts: [String]
        var answers: [JSONValue]

        /// The JSON a successful call answered (its text parsed).
        func json(_ number: Int) throws -> JSONValue {
            let text = try #require(answers[number]["text"]?.stringValue)
            #expect(answers[number]["isError"] == false, "\(text)")
            return try JSONValue(parsing: text)
        }
    }

    /// Runs the Python client against `rewind mcp ARGUMENTS` with `calls` (see mcp_client.py).
    func converse(_ arguments: [String], _ calls: [JSONValue]) throws -> Conversation {
        let python = try #require(PythonMCPClient.python, "no Python MCP client: run `make mcp-client` (CI=true needs it)")
        let process = try ChildProcess(python, [PythonMCPClient.script, Executables.path("rewind"), "mcp"] + arguments)
        process.write(JSONValue.array(calls).serialized())
        process.closeInput()
        let status = process.waitForExit(timeout: 60)
        if status == nil { process.signal(SIGKILL) }
        #expect(status == 0, "\(process.stderrLines.suffix(20).joined(separator: "\n"))")
        let lines = try process.stdoutLines.map { try JSONValue(parsing: $0) }
        try #require(lines.count == calls.count + 3, "\(process.stdoutLines) \(process.stderrLines.suffix(20))")
        func names(_ value: JSONValue?) -> [String] { value?.arrayValue?.compactMap(\.stringValue) ?? [] }
        return Conversation(tools: names(lines[0]["tools"]), resources: names(lines[1]["resources"]),
                            prompts: names(lines[2]["prompts"]), answers: Array(lines.dropFirst(3)))
    }

    /// `rewind ARGUMENTS --data DIR`'s standard output, parsed as JSON lines.
    func rewind(_ arguments: [String], data: URL) throws -> [JSONValue] {
        let run = RewindRun.inProcess(arguments + ["--data", data.path])
        #expect(run.status == 0, "\(run.stderr)")
        return try run.stdout.map { try JSONValue(parsing: $0) }
    }

    static func call(_ tool: String, _ arguments: JSONObject) -> JSONValue {
        ["tool": .string(tool), "arguments": .object(arguments)]
    }

    @Test("lists the read tools only, and every one answers as rewind state, diff and history do")
    func readToolsAnswerAsTheCommandLine() throws {
        let cart = try CartSession()
        let id = JSONValue.string(cart.id.rawValue)
        let talk = try converse(["--data", cart.directory.path, "--port", "\(FreePort.unused())"], [
            Self.call("list_sessions", [:]),
            Self.call("list_events", ["session": id, "includeActions": true]),
            Self.call("get_state", ["session": id, "event": 3, "pointer": "/cart/total"]),
            Self.call("get_state", ["session": id, "event": 2, "pointer": "/cart"]),
            Self.call("diff_states", ["session": id, "from": 1, "to": 3]),
            Self.call("path_history", ["session": id, "pointer": "/cart/total"]),
            Self.call("search_events", ["session": id, "query": "cart/add"]),
            Self.call("search_events", ["session": id, "query": "action:discount"]),
            Self.call("search_events", ["session": id, "query": "state:/user == bob"]),
            Self.call("first_event_where", ["session": id, "condition": "/cart/total < 0"]),
            Self.call("session_statistics", ["session": id, "top": 3]),
            Self.call("get_state", ["session": id, "event": 0, "maxBytes": 1_024]),
            ["resource": .string("rewind://session/\(cart.id.rawValue)")],
            ["prompt": "find_breaking_action", "arguments": ["session": id, "pointer": "/cart/total"]],
            Self.call("session_statistics", ["session": id, "labels": true]),
        ])
        #expect(Set(talk.tools) == ["list_sessions", "list_events", "get_state", "diff_states", "path_history",
                                    "search_events", "first_event_where", "session_statistics", "verify_session"])
        let sessions = try talk.json(0)["sessions"]?.arrayValue ?? []
        #expect(sessions.first?["id"] == id && sessions.first?["events"] == 5 && sessions.first?["end"] == "clean")
        let events = try talk.json(1)["events"]?.arrayValue ?? []
        #expect(events.map { $0["label"]?.stringValue ?? "" }
            == ["cart/add", "cart/add", "cart/discount", "user/rename", "cart/add"])
        #expect(events[2]["state"] == "known" && events[2]["ops"] == 1 && events[2]["action"] == ["discount": ["percent": 200]])

        let state = try rewind(["state", cart.id.rawValue, "3", "--pointer", "/cart/total", "--json"], data: cart.directory)
        #expect(try talk.json(2)["value"] == state.first && state.first == -5)
        let cartAt2 = try rewind(["state", cart.id.rawValue, "2", "--pointer", "/cart", "--json"], data: cart.directory)
        #expect(try talk.json(3)["value"] == cartAt2.first)
        let diff = try rewind(["diff", cart.id.rawValue, "1", "3", "--json"], data: cart.directory)
        #expect(try talk.json(4)["patch"] == diff.first)
        let history = try rewind(["history", cart.id.rawValue, "/cart/total", "--json"], data: cart.directory)
        let changes = try talk.json(5)["changes"]?.arrayValue ?? []
        #expect(changes.map { $0["index"] } == history.map { $0["index"] })
        let discount = changes.first { $0["index"] == 3 }
        #expect(discount?["before"] == 5 && discount?["after"] == -5 && discount?["label"] == "cart/discount")

        func matches(_ number: Int) throws -> [Int64] {
            try talk.json(number)["matches"]?.arrayValue?.compactMap { $0["index"]?.int64Value } ?? []
        }
        #expect(try matches(6) == [1, 2, 5])
        #expect(try matches(7) == [3])
        #expect(try matches(8) == [4])
        let first = try talk.json(9)
        #expect(first["found"] == true && first["event"] == 3 && first["label"] == "cart/discount" && first["value"] == -5)
        let statistics = try talk.json(10)
        #expect(statistics["eventCount"] == 5 && statistics["largestPatches"]?.arrayValue?.count == 3)
        #expect(statistics["slowestReducers"]?.arrayValue?.first?["micros"] == 12)
        let outlined = try talk.json(11)
        #expect(outlined["value"]?["omitted"] == true && outlined["limits"]?["maxBytes"] == 1_024)
        #expect(outlined["value"]?["memberBytes"]?["notes"] == 3_002)

        #expect(talk.resources.contains("rewind://session/\(cart.id.rawValue)"))
        #expect(try talk.json(12)["session"]?["id"] == id)
        #expect(talk.prompts == ["find_breaking_action"])
        #expect(talk.answers[13]["text"]?.stringValue?.contains("path_history") == true)
        #expect(statistics["labelsByReducerTime"] == nil, "labels only when asked")
        let labels = try talk.json(14)["labelsByReducerTime"]?.arrayValue ?? []
        #expect(Set(labels.compactMap { $0["label"]?.stringValue }) == ["cart/add", "cart/discount", "user/rename"],
                "\(labels)")
        #expect(labels.first { $0["label"] == "cart/add" }?["count"] == 3)
    }

    @Test("bad arguments are MCP errors naming what to do, and the server answers on after them")
    func badArgumentsAreErrorsNotCrashes() throws {
        let cart = try CartSession()
        let id = JSONValue.string(cart.id.rawValue)
        let talk = try converse(["--data", cart.directory.path, "--port", "\(FreePort.unused())"], [
            Self.call("get_state", ["session": id]),
            Self.call("get_state", ["session": id, "event": "three"]),
            Self.call("get_state", ["session": id, "event": 1, "pointer": "cart"]),
            Self.call("get_state", ["session": id, "event": 1, "colour": "red"]),
            Self.call("get_state", ["session": id, "event": 99]),
            Self.call("get_state", ["session": "nosuchsession", "event": 1]),
            Self.call("search_events", ["session": id, "query": "state:/user ~ 1"]),
            Self.call("jump", ["session": id, "event": 1]),
            Self.call("verify_session", ["session": id, "command": ["/nonexistent/app"], "timeoutSeconds": 30]),
            Self.call("list_events", ["session": id, "limit": 0]),
            Self.call("get_state", ["session": id, "event": 1, "pointer": "/cart/total"]),
        ])
        func protocolError(_ number: Int) -> (code: Int64?, message: String) {
            (talk.answers[number]["error"]?["code"]?.int64Value, talk.answers[number]["error"]?["message"]?.stringValue ?? "")
        }
        func toolError(_ number: Int) -> String? {
            talk.answers[number]["isError"] == true ? talk.answers[number]["text"]?.stringValue : nil
        }
        #expect(protocolError(0).code == -32602 && protocolError(0).message.contains("'event'"))
        #expect(protocolError(1).code == -32602 && protocolError(1).message.contains("whole number"))
        #expect(protocolError(2).code == -32602 && protocolError(2).message.contains("JSON Pointer"))
        #expect(protocolError(3).code == -32602 && protocolError(3).message.contains("'colour'"))
        #expect(toolError(4)?.contains("has no event 99") == true)
        #expect(toolError(5)?.contains("list_sessions") == true, "\(talk.answers[5])")
        #expect(protocolError(6).code == -32602, "\(talk.answers[6])")
        #expect(protocolError(7).code == -32602 && protocolError(7).message.contains("--allow-control"))
        #expect(toolError(8)?.contains("verify") == true, "\(talk.answers[8])")
        #expect(protocolError(9).code == -32602 && protocolError(9).message.contains("'limit'"))
        #expect(try talk.json(10)["value"] == 3)
    }

    @Test("--allow-control adds jump, dispatch, skip and replay, refused with the reason when the app is not live")
    func controlToolsOnlyWhenAllowed() throws {
        let cart = try CartSession()
        let id = JSONValue.string(cart.id.rawValue)
        let talk = try converse(["--allow-control", "--data", cart.directory.path, "--port", "\(FreePort.unused())"], [
            Self.call("jump", ["session": id, "event": 1]),
            Self.call("dispatch", ["session": id, "action": ["add": ["name": "kiwi"]]]),
        ])
        #expect(Set(["jump", "dispatch", "skip", "replay"]).isSubset(of: Set(talk.tools)))
        for answer in talk.answers {
            #expect(answer["isError"] == true, "\(answer)")
            #expect(answer["text"]?.stringValue?.contains("needs the running daemon") == true, "\(answer)")
        }
    }

    @Test("a live session: listed live with what its app accepts; jump reaches the app; dispatch and skip are refused")
    func liveSessionThroughTheDaemon() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-mcp-\(UUID()).txt")
        try "increment\nstep 5\nincrement\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let app = try ChildProcess(Executables.path("tca-style"), ["--script", script.path, "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 3, app: "tca-style"))
        let id = JSONValue.string(session.id.rawValue)
        let linesBefore = app.stdoutLines.count
        let talk = try converse(["--allow-control", "--data", harness.dataDirectory.path, "--port", "\(harness.port)"], [
            Self.call("list_sessions", [:]),
            Self.call("get_state", ["session": id, "event": 1]),
            Self.call("jump", ["session": id, "event": 1]),
            Self.call("dispatch", ["session": id, "action": ["increment": [:]]]),
            Self.call("skip", ["session": id, "event": 1]),
        ])
        let listed = try talk.json(0)["sessions"]?.arrayValue?.first
        #expect(listed?["id"] == id && listed?["live"] == true && listed?["end"] == "live")
        #expect(listed?["accepts"] == ["jump"], "\(String(describing: listed))")
        let state = try talk.json(1)["value"]
        #expect(state?["count"] == 1)
        #expect(try talk.json(2)["jumpedTo"] == 1)
        #expect(app.waitForLine(timeout: 5, after: linesBefore) { (try? JSONValue(parsing: $0)) == state } != nil,
                "the app took the state of event 1: \(app.stdoutLines.suffix(3))")
        for (number, ability) in [(3, "dispatch"), (4, "replay")] {
            #expect(talk.answers[number]["isError"] == true)
            #expect(talk.answers[number]["text"]?.stringValue?.contains("does not accept '\(ability)'") == true,
                    "\(talk.answers[number])")
        }
    }

    @Test("dispatch reaches an app that accepts it, and verify_session verifies its session as rewind verify does")
    func dispatchAndVerify() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-mcp-\(UUID()).txt")
        try "add milk 2\nadd tea 1\nremove 0\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let app = try ChildProcess(Executables.path("reswift-style"), ["--script", script.path, "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        let session = try #require(harness.waitForSession(events: 3, app: "reswift-style"))
        let id = JSONValue.string(session.id.rawValue)
        let talk = try converse(["--allow-control", "--data", harness.dataDirectory.path, "--port", "\(harness.port)"], [
            Self.call("dispatch", ["session": id, "action": ["AddItem": ["name": "kiwi", "quantity": 4]]]),
        ])
        #expect(talk.answers[0]["isError"] == false, "\(talk.answers[0])")
        _ = harness.waitForSession(events: 4, app: "reswift-style")
        app.closeInput()
        #expect(app.waitForExit() == 0)

        let verified = try converse(["--data", harness.dataDirectory.path, "--port", "\(harness.port)"], [
            Self.call("verify_session", ["session": id, "command": [.string(Executables.path("reswift-style"))]]),
            Self.call("list_events", ["session": id, "from": 4, "includeActions": true]),
        ])
        let outcome = try verified.json(0)
        #expect(outcome["ok"] == true && outcome["verified"] == 4, "\(outcome)")
        #expect(try verified.json(1)["events"]?[0]?["action"] == ["AddItem": ["name": "kiwi", "quantity": 4]])
    }
}
