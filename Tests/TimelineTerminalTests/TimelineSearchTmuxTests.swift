import Foundation
@testable import RewindDaemon
@testable import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 22's "How we will know": every timeline feature through the real `rewind open` in tmux, on one
/// 1,000,000-event session file generated once for the suite (`MillionEventSession`): go to an event, a time and a
/// percentage; a label search that lands at once (the label index); the row filter and hiding by kind; a state
/// search that reads every event off the UI thread with its progress on screen while the keys keep answering, and
/// Esc cancelling it; the state history of a node and comparing two events far apart; paging into a 5,000-element
/// array and reading a long string whole.
@Suite("A million events in a terminal (tmux)", .serialized, .millionEventSession,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct TimelineSearchTmuxTests {
    /// The suite's session file (see `MillionEventSession`).
    private var file: MillionEventSession { get throws { try #require(MillionEventSession.current) } }

    /// `rewind open` on the suite's session (its environment prefixed with `environment`, e.g. `PAGER=… `), once
    /// its first frame is on screen.
    private func open(environment: String = "", width: Int = 120, height: Int = 36) throws -> Tmux {
        let file = try file
        let tmux = try Tmux(command: "\(environment)\(Executables.path("rewind")) open \(file.id.rawValue) "
                            + "--data \(file.directory.path)", width: width, height: height)
        _ = tmux.waitForScreen { $0.contains("1,000,000 events") }
        return tmux
    }

    /// Types `text` into the `:` prompt and Enter.
    private static func goTo(_ text: String, in tmux: Tmux) {
        tmux.send(":")
        tmux.sendLiteral(text)
        tmux.send("Enter")
    }

    /// The screen row showing timeline event `index` (its number right-aligned in the 8 columns the row begins with).
    private static func row(_ index: Int, in screen: String) -> String? {
        let prefix = String(repeating: " ", count: max(0, 8 - String(index).count)) + "\(index) "
        return screen.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    @Test("label search lands at once; Tab hides other rows; a state search shows progress, keys answer meanwhile, Esc cancels it")
    func searchMillionEvents() throws {
        let tmux = try open()
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("1,000,000 events") } != nil, "\(tmux.screen)")

        // A label search: the label index answers at once.
        tmux.send("/")
        tmux.sendLiteral("needle")
        let started = Date()
        tmux.send("Enter")
        let found = try #require(tmux.waitForScreen { $0.contains("#987654 needle/found") }, "\(tmux.screen)")
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < TestTime.seconds(3), "the label search over 1,000,000 events took \(seconds) s (debug build, tmux)")
        #expect(found.contains("n/N match"), "n and N are offered once a search ran: \(found)")
        print("label search over 1,000,000 events, keys to screen through tmux: \(Int(seconds * 1000)) ms")

        // The filter that hides rows: only the 1,000 `tock` rows (and the needle's neighbour rows are gone).
        tmux.send("/", "C-u")
        tmux.sendLiteral("tock|needle")
        tmux.send("Tab")
        let only = try #require(tmux.waitForScreen { $0.contains("1,001 of 1,000,000 events shown (only /tock|needle/)") },
                                "\(tmux.screen)")
        #expect(!only.contains(" tick "), "no tick row is shown: \(only)")
        tmux.send("g", "j", "j")
        let top = try #require(tmux.waitForScreen { $0.contains("#2000 tock") }, "\(tmux.screen)")
        #expect(top.contains("   1000  +0:01.000   tock") || top.contains("  1000 "), "\(top)")
        tmux.send("Escape")
        #expect(tmux.waitForScreen { $0.contains("filter cleared") && $0.contains(" tick ") } != nil, "\(tmux.screen)")

        // A state search that never matches reads all 1,000,000 states: it runs off the UI thread with progress.
        tmux.send("/", "C-u")
        tmux.sendLiteral("s:/n == -1")
        tmux.send("Enter")
        let progress = try #require(tmux.waitForScreen {
            $0.contains("searching state:/n == -1…") && $0.contains("% of 1,000,000 events — Esc cancels")
        }, "\(tmux.screen)")
        #expect(progress.contains("Esc cancel search"), "the footer offers Esc: \(progress)")

        // Keys keep answering meanwhile: go to event 500.
        tmux.send(":")
        tmux.sendLiteral("500")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("#500 tick") } != nil, "go-to answered during the search: \(tmux.screen)")
        tmux.send("j")
        #expect(tmux.waitForScreen { $0.contains("#501 tick") && $0.contains("Esc cancels") } != nil,
                "the cursor moved and the search still runs: \(tmux.screen)")

        // Esc cancels it.
        tmux.send("Escape")
        let cancelled = try #require(tmux.waitForScreen { $0.contains("search cancelled") }, "\(tmux.screen)")
        #expect(!cancelled.contains("Esc cancels"))
        #expect(cancelled.contains("#501 tick"), "the cursor stayed where the user put it")

        // A state search that matches: the event where the condition becomes true.
        tmux.send("/", "C-u")
        tmux.sendLiteral("s:/n == 2500")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("#2500 tick") && $0.contains("event 2,500: state:/n == 2500") }
                != nil, "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    @Test("go to an event, a time (relative and clock) and a percentage; the id in the title; no app keys on a saved session")
    func goTo() throws {
        let file = try file
        let started = Date()
        let tmux = try open()
        defer { tmux.kill() }
        let first = try #require(tmux.waitForScreen { $0.contains("1,000,000 events") }, "\(tmux.screen)")
        print("first frame of a 1,000,000-event session through tmux (debug build): "
              + "\(Int(Date().timeIntervalSince(started) * 1000)) ms")
        #expect(first.contains(" \(file.id.rawValue) 1,000,000 events"), "the id is in the timeline's title: \(first)")
        let footer = String(first.split(separator: "\n").last ?? "")
        #expect(footer.contains(": go to") && !footer.contains("Enter jump") && !footer.contains("< > step")
                && !footer.contains("d dispatch"), "a saved session offers no app keys: \(footer)")

        tmux.send(":")
        #expect(tmux.waitForScreen { $0.contains("go to (1234, +12.5s, 14:03:12, 50%):") } != nil)
        tmux.send("C-u")
        tmux.sendLiteral("123457")
        tmux.send("Enter")
        let atEvent = try #require(tmux.waitForScreen { $0.contains(" event 123,457") }, "\(tmux.screen)")
        #expect(Self.row(123_457, in: atEvent)?.contains("+2:03.457   tick") == true, "\(atEvent)")
        #expect(atEvent.contains("#123457 tick"), "the detail pane shows it")

        Self.goTo("+100.5s", in: tmux)
        let atTime = try #require(tmux.waitForScreen { $0.contains(" event 100,500: the first event at or after") },
                                  "\(tmux.screen)")
        #expect(atTime.contains("#100500 tick"))

        // A clock time: the session started on a whole second, event i is at +i ms.
        let reader = try SessionStore(directory: file.directory, creating: false).openSession(file.id)
        let clock = DateFormatter()
        clock.dateFormat = "HH:mm:ss"
        let tenMinutes = clock.string(from: reader.metadata.startedAt.addingTimeInterval(600))
        Self.goTo(tenMinutes, in: tmux)
        #expect(tmux.waitForScreen { $0.contains(" event 600,000: the first event at or after \(tenMinutes)") }
                != nil, "\(tmux.screen)")

        Self.goTo("50%", in: tmux)
        #expect(tmux.waitForScreen { $0.contains(" event 500,000: 50% of the session") && $0.contains("#500000 tock") }
                != nil, "\(tmux.screen)")

        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("has ended: no app is connected to jump, step, skip, replay or dispatch") }
                != nil, "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    @Test("S counts 1,000,000 events off the UI thread and lists every label; t sorts; End and Enter go to the needle; Tab ranks events",
          arguments: [(80, 24), (120, 40), (200, 60)])
    func statsView(width: Int, height: Int) throws {
        let tmux = try open(width: width, height: height)
        defer { tmux.kill() }
        let started = Date()
        tmux.send("S")
        let table = try #require(tmux.waitForScreen(timeout: 60) {
            $0.contains("Stats of 1,000,000 events: 4 labels") && $0.contains("needle/found")
        }, "\(tmux.screen)")
        print("stats view over 1,000,000 events at \(width)×\(height), key to table through tmux: "
              + "\(Int(Date().timeIntervalSince(started) * 1000)) ms")
        let order = { (screen: String) in
            screen.split(separator: "\n").compactMap { line in
                ["tick", "tock", "note", "needle/found"].first { line.contains("│ \($0) ") }
            }
        }
        #expect(order(table) == ["tick", "tock", "note", "needle/found"], "by count: \(table)")
        #expect(table.contains("▼COUNT") && table.contains("998,899"), "tick's count: \(table)")
        #expect(table.split(separator: "\n").last?.contains("c t p z sort") == true || width < 100, "\(table)")
        tmux.send("t")
        #expect(tmux.waitForScreen { $0.contains("▼TOTAL") } != nil, "\(tmux.screen)")
        tmux.send("c", "End", "Enter")
        let needle = try #require(tmux.waitForScreen { $0.contains("#987654 needle/found") }, "\(tmux.screen)")
        #expect(!needle.contains("Stats of"), "Enter closed the view: \(needle)")
        tmux.send("S", "Escape")
        #expect(tmux.waitForScreen { !$0.contains("Stats of") } != nil, "Esc closes: \(tmux.screen)")
        // The rankings of single events (Tab), counted in the same pass; Enter goes to the largest patch's event.
        tmux.send("S", "Tab")
        #expect(tmux.waitForScreen(timeout: 60) { $0.contains("slowest reducers") && $0.contains("▼REDUCER") } != nil,
                "\(tmux.screen)")
        tmux.send("Tab")
        let largest = try #require(tmux.waitForScreen { $0.contains("50 largest patches") && $0.contains("▼PATCH") },
                                   "\(tmux.screen)")
        #expect(largest.contains("B  "), "patch sizes in bytes: \(largest)")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { !$0.contains("Stats of") && $0.contains("its patch is") } != nil,
                "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    @Test("session map and filter as you type on 1,000,000 events: /needle narrows as typed, the map marks it; Esc restores",
          arguments: [(80, 24), (120, 40), (200, 60)])
    func mapAndFilterAsYouType(width: Int, height: Int) throws {
        let started = Date()
        let tmux = try open(width: width, height: height)
        defer { tmux.kill() }
        let first = try #require(tmux.waitForScreen { SessionMapTmuxTests.map($0, width: width).first?.track == "◀" },
                                 "the map beside the first frame: \(tmux.screen)")
        print("first frame with the session map of 1,000,000 events at \(width)×\(height) through tmux (debug build): "
              + "\(Int(Date().timeIntervalSince(started) * 1000)) ms")
        #expect(SessionMapTmuxTests.map(first, width: width).count >= 5, "\(first)")

        // Typing narrows the list to the needle (the label index) and the map marks where it is, prompt still open.
        tmux.send("/")
        let typed = Date()
        tmux.sendLiteral("needle")
        let narrowed = try #require(tmux.waitForScreen { screen in
            let map = SessionMapTmuxTests.map(screen, width: width)
            guard !map.isEmpty else { return false }
            let needle = SessionMap.bucket(of: Int64(MillionEventSession.needle), in: 0...Int64(MillionEventSession.count),
                                           buckets: map.count)
            return screen.contains("only /needle/") && Self.row(MillionEventSession.needle, in: screen) != nil
                && !screen.contains(" tick ") && map[needle].track == "◆"
        }, "\(tmux.screen)")
        print("/needle narrowed 1,000,000 events while typing at \(width)×\(height): "
              + "\(Int(Date().timeIntervalSince(typed) * 1000)) ms")
        #expect(narrowed.contains("/needle"), "the prompt is still open: \(narrowed)")

        // A preview of nearly every row (tick) is computed off the UI thread: the prompt answers meanwhile.
        tmux.send("C-u")
        tmux.sendLiteral("ti")
        #expect(tmux.waitForScreen { $0.contains("/ti") } != nil, "\(tmux.screen)")
        tmux.sendLiteral("ck")
        #expect(tmux.waitForScreen { $0.contains("/tick") } != nil, "\(tmux.screen)")
        tmux.send("Escape")
        #expect(tmux.waitForScreen { !$0.contains("only /") && $0.contains("initial state") && $0.contains(" tick ") }
                != nil, "Esc gives every row back: \(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    @Test("/-note hides the 100 note rows of 1,000,000 (off the UI thread); Esc shows them again")
    func hideKinds() throws {
        let tmux = try open()
        defer { tmux.kill() }
        Self.goTo("5554", in: tmux)
        let before = try #require(tmux.waitForScreen { $0.contains(" event 5,554") }, "\(tmux.screen)")
        #expect(Self.row(5555, in: before)?.contains("note") == true, "\(before)")

        tmux.send("/", "C-u")
        tmux.sendLiteral("-note")
        tmux.send("Enter")
        let hidden = try #require(tmux.waitForScreen(timeout: 30) {
            $0.contains("999,900 of 1,000,000 events shown (no note)")
        }, "\(tmux.screen)")
        #expect(Self.row(5555, in: hidden) == nil, "the note row is hidden: \(hidden)")
        let lines = hidden.split(separator: "\n").map(String.init)
        let above = try #require(lines.firstIndex { $0.hasPrefix("    5554 ") }, "\(hidden)")
        #expect(lines[above + 1].hasPrefix("    5556 "), "5556 follows 5554: \(hidden)")

        tmux.send("Escape")
        #expect(tmux.waitForScreen { Self.row(5555, in: $0)?.contains("note") == true } != nil, "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    @Test("b on a node lists the 999 events that changed it and steps through them; m and the Diff tab compare #1000 with #999000")
    func historyAndCompare() throws {
        let tmux = try open()
        defer { tmux.kill() }
        Self.goTo("999000", in: tmux)
        #expect(tmux.waitForScreen { $0.contains("#999000 tock") } != nil, "\(tmux.screen)")
        tmux.send("3", "Tab", "g", "j")  // the State tab, its `k` node
        _ = tmux.waitForScreen { $0.contains("k: 999") }
        let asked = Date()
        tmux.send("b")
        let listed = try #require(tmux.waitForScreen { $0.contains("/k changed by") }, "\(tmux.screen)")
        print("state history of /k through event 999,000 of 1,000,000, keys to screen through tmux: "
              + "\(Int(Date().timeIntervalSince(asked) * 1000)) ms")
        #expect(listed.contains("/k changed by 999 events, newest first: [#999000] #998000 #997000"), "\(listed)")
        #expect(listed.contains("1/999"), "\(listed)")
        tmux.send("b")
        let older = try #require(tmux.waitForScreen { $0.contains("#999000 [#998000] #997000") }, "\(tmux.screen)")
        #expect(older.contains("k: 998") && older.contains("#998000 tock"), "the State tab shows event 998,000: \(older)")
        tmux.send("B")
        #expect(tmux.waitForScreen { $0.contains("[#999000] #998000") && $0.contains("k: 999") } != nil,
                "\(tmux.screen)")

        // Compare: mark #1000, select #999000, the Diff tab shows the patch between their states.
        tmux.send("Tab", "Tab")  // detail → sessions → timeline
        Self.goTo("1000", in: tmux)
        tmux.send("m")
        #expect(tmux.waitForScreen { $0.contains("marked #1000") } != nil, "\(tmux.screen)")
        Self.goTo("999000", in: tmux)
        tmux.send("2")
        let compared = try #require(tmux.waitForScreen { $0.contains("#1000 → #999000") }, "\(tmux.screen)")
        #expect(compared.contains("~ n: 1000 → 999000") && compared.contains("~ k: 1 → 999"), "\(compared)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    @Test("at event 1,000,000: page into a 5,000-element array, read a long string whole, copy it, open it in $PAGER")
    func bigValues() throws {
        let file = try file
        let paged = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-paged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: paged, withIntermediateDirectories: true)
        let copied = file.directory.appendingPathComponent("copied.txt")
        defer {
            try? FileManager.default.removeItem(at: paged)
            try? FileManager.default.removeItem(at: copied)
        }
        let tmux = try open(environment: "PAGER='cp -t \(paged.path)' ")
        defer { tmux.kill() }
        tmux.send("G", "3", "Tab")
        #expect(tmux.waitForScreen { $0.contains("#1000000 tock") && $0.contains("items [5000]") } != nil,
                "\(tmux.screen)")
        tmux.send("G", "k")
        #expect(tmux.waitForScreen { $0.contains("… 3,000 more — Enter shows the next 2,000") } != nil, "\(tmux.screen)")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("2000: 2000") } != nil, "\(tmux.screen)")
        tmux.send("G", "k")
        #expect(tmux.waitForScreen { $0.contains("3999: 3999") && $0.contains("… 1,000 more — Enter shows the next 1,000") }
                != nil, "\(tmux.screen)")

        // The string: cut in the tree, whole in the viewer.
        tmux.send("G")
        let tree = try #require(tmux.waitForScreen { $0.contains("text: \"line-0-of-the-story") }, "\(tmux.screen)")
        #expect(!tree.contains("THE-END"))
        tmux.send("Enter")
        let viewer = try #require(tmux.waitForScreen { $0.contains("state /text") && $0.contains("THE-END") },
                                  "\(tmux.screen)")
        #expect(viewer.contains("line-40-of-the-story"))

        // y: under tmux the copy goes to a file in the data directory, and the status line says where.
        tmux.send("y")
        #expect(tmux.waitForScreen { $0.contains("copied the value at /text to \(copied.path)") } != nil,
                "\(tmux.screen)")
        #expect(try String(contentsOf: copied, encoding: .utf8) == MillionEventSession.longText)

        // o: the pager gets the whole value (here the pager copies its file away).
        tmux.send("o")
        #expect(tmux.waitForScreen { $0.contains("closed the pager (cp -t \(paged.path))") } != nil, "\(tmux.screen)")
        let files = try FileManager.default.contentsOfDirectory(atPath: paged.path)
        #expect(files.count == 1 && files.first?.hasSuffix("-value.txt") == true, "\(files)")
        if let name = files.first {
            #expect(try String(contentsOf: paged.appendingPathComponent(name), encoding: .utf8)
                    == MillionEventSession.longText)
        }
        #expect(tmux.screen.contains("state /text"), "the viewer is back after the pager")
        tmux.send("Escape", "q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }
}
