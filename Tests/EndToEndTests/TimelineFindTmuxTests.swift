import Foundation
import RewindDaemon
import RewindWire
import Testing

/// Issue 22 through the real `rewind open` in tmux: go to an event, a time and a percentage of a long session,
/// page into a big array, read a long string whole, copy it and open it in `$PAGER`, and click with the mouse.
/// Sessions are written with the store's API (no app, no streaming) in a fresh data directory.
@Suite("Finding things in a terminal (tmux)", .serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct TimelineFindTmuxTests {
    /// A saved session of `count` events: event i sets `/n` to i (and `state(i)` when given) at +i ms.
    private static func session(
        count: Int, in directory: URL, state: ((Int) -> JSONValue)? = nil
    ) throws -> SessionID {
        let store = try SessionStore(directory: directory)
        let start = Date().timeIntervalSince1970.rounded(.down)
        let recording = try store.createSession(appName: "find", protocolVersion: 1, initialState: ["n": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        var previous: JSONValue = ["n": 0]
        for index in 1...count {
            let value = JSONValue.int(Int64(index))
            let after = state?(index) ?? ["n": value]
            let patch = state == nil ? JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: value)])
                                     : JSONPatch.diff(from: previous, to: after)
            recording.append(NewEvent(appSeq: Int64(index), time: start + Double(index) / 1000,
                                      label: index % 1000 == 0 ? "tock" : "tick", action: ["n": value], patch: patch),
                             stateAfter: after)
            previous = after
            if index % 20_000 == 0 { recording.flush() }
        }
        recording.finish(endState: .clean)
        return recording.id
    }

    private static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rewind-find-\(UUID().uuidString)")
    }

    /// The screen row showing timeline event `index` (its number right-aligned in `width` columns).
    private static func row(_ index: Int, width: Int, in screen: String) -> String? {
        let prefix = String(repeating: " ", count: max(0, width - String(index).count)) + "\(index) "
        return screen.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    @Test("go to an event, a time and a percentage of a 200,000-event session; no app keys on a saved session")
    func goTo() throws {
        let data = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        // 200,000 events: written in ~2.5 s by a debug build (1,000,000 take ~19 s; a go-to reads ~20 rows either way).
        let id = try Self.session(count: 200_000, in: data)
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(id.rawValue) --data \(data.path)")
        defer { tmux.kill() }
        let first = try #require(tmux.waitForScreen { $0.contains("200,000 events") }, "\(tmux.screen)")
        #expect(first.contains(" \(id.rawValue) 200,000 events"), "the id is in the timeline's title: \(first)")
        let footer = String(first.split(separator: "\n").last ?? "")
        #expect(footer.contains(": go to") && !footer.contains("Enter jump") && !footer.contains("< > step")
                && !footer.contains("d dispatch"), "a saved session offers no app keys: \(footer)")

        tmux.send(":")
        #expect(tmux.waitForScreen { $0.contains("go to (1234, +12.5s, 14:03:12, 50%):") } != nil)
        tmux.send("123457", "Enter")
        let atEvent = try #require(tmux.waitForScreen { $0.contains(" event 123,457") }, "\(tmux.screen)")
        #expect(Self.row(123_457, width: 7, in: atEvent)?.contains("+2:03.457   tick") == true, "\(atEvent)")
        #expect(atEvent.contains("#123457 tick"), "the detail pane shows it")

        tmux.send(":", "+100.5s", "Enter")
        let atTime = try #require(tmux.waitForScreen { $0.contains(" event 100,500: the first event at or after") },
                                  "\(tmux.screen)")
        #expect(atTime.contains("#100500 tick"))

        tmux.send(":", "50%", "Enter")
        #expect(tmux.waitForScreen { $0.contains(" event 100,000: 50% of the session") && $0.contains("#100000 tock") }
                != nil, "\(tmux.screen)")

        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("has ended: no app is connected to jump, step, skip, replay or dispatch") }
                != nil, "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    /// The long string of `bigValues`.
    private static let longText = (0..<80).map { "line-\($0)-of-the-story" }.joined(separator: " ") + " THE-END"

    @Test("page into a 5,000-element array, read a long string whole, copy it, open it in $PAGER")
    func bigValues() throws {
        let data = Self.temporaryDirectory()
        let paged = Self.temporaryDirectory()
        try FileManager.default.createDirectory(at: paged, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: paged)
        }
        let items = JSONValue.array((0..<5_000).map { .int(Int64($0)) })
        let id = try Self.session(count: 1, in: data) { _ in ["items": items, "text": .string(Self.longText)] }
        let tmux = try Tmux(command: "PAGER='cp -t \(paged.path)' \(Executables.path("rewind")) open \(id.rawValue) "
                            + "--data \(data.path)", width: 120, height: 36)
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("1 event") } != nil, "\(tmux.screen)")
        tmux.send("G", "3", "Tab")
        tmux.send("G", "k")
        #expect(tmux.waitForScreen { $0.contains("… 3,000 more — Enter shows the next 2,000") } != nil, "\(tmux.screen)")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("2000: 2000") } != nil, "\(tmux.screen)")
        tmux.send("G", "k")
        #expect(tmux.waitForScreen { $0.contains("3999: 3999") && $0.contains("… 1,000 more — Enter shows the next 1,000") }
                != nil, "\(tmux.screen)")

        // The string: cut in the tree, whole in the viewer.
        tmux.send("G")
        let tree = try #require(tmux.waitForScreen { $0.contains("text: \"line-0-of-the-story") })
        #expect(!tree.contains("THE-END"))
        tmux.send("Enter")
        let viewer = try #require(tmux.waitForScreen { $0.contains("state /text") && $0.contains("THE-END") },
                                  "\(tmux.screen)")
        #expect(viewer.contains("line-40-of-the-story"))

        // y: under tmux the copy goes to a file in the data directory, and the status line says where.
        tmux.send("y")
        let copied = data.appendingPathComponent("copied.txt")
        #expect(tmux.waitForScreen { $0.contains("copied the value at /text to \(copied.path)") } != nil,
                "\(tmux.screen)")
        #expect(try String(contentsOf: copied, encoding: .utf8) == Self.longText)

        // o: the pager gets the whole value (here the pager copies its file away).
        tmux.send("o")
        #expect(tmux.waitForScreen { $0.contains("closed the pager (cp -t \(paged.path))") } != nil, "\(tmux.screen)")
        let files = try FileManager.default.contentsOfDirectory(atPath: paged.path)
        #expect(files.count == 1 && files.first?.hasSuffix("-value.txt") == true, "\(files)")
        if let name = files.first {
            #expect(try String(contentsOf: paged.appendingPathComponent(name), encoding: .utf8) == Self.longText)
        }
        #expect(tmux.screen.contains("state /text"), "the viewer is back after the pager")
        tmux.send("Escape", "q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    /// An xterm (X10) mouse report, as a terminal sends it: button code, then column and row from 1, each + 32.
    private static func mouseReport(button: Int, row: Int, column: Int) -> String {
        "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + column)))
            + String(UnicodeScalar(UInt8(33 + row)))
    }

    @Test("a mouse click selects an event row, the wheel scrolls (raw xterm mouse reports typed into tmux)")
    func mouse() throws {
        let data = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let id = try Self.session(count: 200, in: data)
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(id.rawValue) --data \(data.path)",
                            width: 90, height: 30)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitForScreen { $0.contains("200 events") && $0.contains("   5 ") })
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.hasPrefix("   5 ") })
        tmux.sendLiteral(Self.mouseReport(button: 0, row: row, column: 12))
        tmux.sendLiteral(Self.mouseReport(button: 3, row: row, column: 12))
        #expect(tmux.waitForScreen { $0.contains("#5 tick") } != nil, "the click selected event 5: \(tmux.screen)")
        tmux.sendLiteral(Self.mouseReport(button: 65, row: row, column: 12))  // wheel down: 3 rows
        #expect(tmux.waitForScreen { $0.contains("#8 tick") } != nil, "the wheel moved 3 rows: \(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    @Test("rewind open on a session a running daemon records: rows stream in; not attached, no app keys and never 'no app is connected'; attached (--port), the keys reach the app")
    func openALiveSession() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let session = try #require(try app.hello(AppFrames.hello(name: "viewed")))
        for seq in 1...3 { try app.send(AppFrames.action(seq: seq)) }
        #expect(harness.waitForSession(events: 3) != nil)
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(session) --data \(harness.dataDirectory.path)")
        defer { tmux.kill() }
        let first = try #require(tmux.waitForScreen { $0.contains("3 events") }, "\(tmux.screen)")
        #expect(first.contains("live"), "the session is shown live: \(first)")
        let footer = String(first.split(separator: "\n").last ?? "")
        #expect(!footer.contains("Enter jump") && !footer.contains("s skip") && !footer.contains("d dispatch"),
                "\(footer)")

        for seq in 4...6 { try app.send(AppFrames.action(seq: seq)) }
        #expect(tmux.waitForScreen { $0.contains("6 events") } != nil, "the new rows stream in: \(tmux.screen)")
        for key in ["Enter", "d", "<"] {
            tmux.send(key)
            let said = tmux.waitForScreen { $0.contains("this timeline only reads session \(session)") }
            #expect(said?.contains("its app is connected to another rewind") == true, "\(key): \(tmux.screen)")
            #expect(said?.contains("no app is connected") == false)
        }
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")

        // Attached to the daemon that records it (--port), the app keys are offered and reach the app.
        let attached = try Tmux(command: "\(Executables.path("rewind")) open \(session) --data "
                                + "\(harness.dataDirectory.path) --port \(harness.port)")
        defer { attached.kill() }
        let screen = try #require(attached.waitForScreen { $0.contains("6 events") }, "\(attached.screen)")
        #expect(screen.contains("app commands through ws://127.0.0.1:\(harness.port)"), "\(screen)")
        #expect(String(screen.split(separator: "\n").last ?? "").contains("Enter jump"), "\(screen)")
        attached.send("k", "Enter")
        var jump: JSONValue?
        for _ in 0..<5 where jump == nil {
            let message = try app.next()
            if message["type"] == "jump" { jump = message }
        }
        let request = try #require(jump, "the app received the jump")
        #expect(request["state"]?["count"] == 5, "the state of event 5: \(request)")
        try app.send(#"{"type":"result","id":"\#(request["id"]?.stringValue ?? "")","ok":true}"#)
        #expect(attached.waitForScreen { $0.contains("jumped the app to event 5") } != nil, "\(attached.screen)")
        attached.send("q")
        #expect(attached.waitForExit(), "rewind open quit")
    }
}
