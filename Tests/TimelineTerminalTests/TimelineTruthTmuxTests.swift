import Foundation
import RewindTestSupport
import RewindWire
import Testing

/// Issue 18 through the real `rewind` in tmux: an app (a hand-driven peer speaking the wire protocol, so that
/// the dropped range is exactly where the test puts it) records actions dispatched before it connected, a
/// `dropped` range, and answers the daemon's replay when the user skips an action with `s`. The screen must show
/// the recomputed branch rows like any row, their own branch's state, the unknown states as unknown, refuse to
/// jump into them, and never show a time running backwards — live and in `rewind open`.
@Suite("Timeline truth in a terminal (tmux)", .serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct TimelineTruthTmuxTests {
    /// A counter app on a raw connection: state `{"count": n}`, actions `{"add": k}` add k. After setup it
    /// answers the daemon's `jump` and `replay` on its own thread until `stop()`.
    final class CounterPeer: @unchecked Sendable {  // `count`, `seq`, `stopped` guarded by `lock`
        private let peer: DaemonPeer
        private let lock = NSLock()
        private var count = 0
        private var seq = 0
        private var stopped = false
        private var thread: Thread?
        let session: String

        /// A peer whose `hello` says, with `dispatched`, how many actions it dispatched before connecting (nil: it
        /// does not say).
        init(port: Int, dispatched: Int? = nil) throws {
            peer = try DaemonPeer(port: port, timeout: TestTime.seconds(1))
            let said = dispatched.map { #","dispatched":\#($0)"# } ?? ""
            let hello = #"{"type":"hello","protocol":1,"app":{"name":"truth","instance":"\#(UUID().uuidString)"},"#
                + #""state":{"count":0},"stateType":"Counter","capabilities":["jump","dispatch","replay"]\#(said)}"#
            session = try #require(try peer.hello(hello))
        }

        /// Sends action `amount` dispatched at `time`; `withState: false` sends the empty patch of a dropped range.
        func add(_ amount: Int, at time: Double, withState: Bool = true) throws {
            let (seq, count) = lock.withLock { () -> (Int, Int) in
                self.seq += 1
                self.count += amount
                return (self.seq, self.count)
            }
            let patch = withState ? #"[{"op":"replace","path":"/count","value":\#(count)}]"# : "[]"
            try peer.send(#"{"type":"action","seq":\#(seq),"time":\#(time),"action":{"type":"add","payload":{"add":\#(amount)}},"patch":\#(patch)}"#)
        }

        func send(_ frame: String) throws { try peer.send(frame) }

        var current: (seq: Int, count: Int) { lock.withLock { (seq, count) } }

        /// Answers commands until `stop()`.
        func startAnswering() {
            let thread = Thread { [self] in
                while !lock.withLock({ stopped }) {
                    guard let message = try? peer.next() else { continue }
                    try? answer(message)
                }
            }
            self.thread = thread
            thread.start()
        }

        func stop() {
            lock.withLock { stopped = true }
            usleep(TestTime.microseconds(1_200_000))  // the reader's timeout
        }

        private func answer(_ message: JSONValue) throws {
            guard let id = message["id"]?.stringValue else { return }
            switch message["type"]?.stringValue {
            case "jump":
                guard case .int(let value)? = message["state"]?["count"] else { return }
                let seq = lock.withLock { () -> Int in
                    count = Int(value)
                    return self.seq
                }
                try peer.send(#"{"type":"result","id":"\#(id)","ok":true}"#)
                try peer.send(#"{"type":"snapshot","seq":\#(seq),"state":{"count":\#(value)},"reason":"jump"}"#)
            case "replay":
                var value = current.count
                if message["reset"] != false, case .int(let base)? = message["state"]?["count"] { value = Int(base) }
                var states: [String] = []
                if case .array(let actions)? = message["actions"] {
                    for action in actions {
                        if case .int(let amount)? = action["add"] { value += Int(amount) }
                        states.append(#"{"count":\#(value)}"#)
                    }
                }
                let seq = lock.withLock { () -> Int in
                    count = value
                    return self.seq
                }
                try peer.send(#"{"type":"result","id":"\#(id)","ok":true,"states":[\#(states.joined(separator: ","))],"state":{"count":\#(value)}}"#)
                try peer.send(#"{"type":"snapshot","seq":\#(seq),"state":{"count":\#(value)},"reason":"replay"}"#)
            default:
                try peer.send(#"{"type":"result","id":"\#(id)","ok":false,"error":"not supported"}"#)
            }
        }
    }

    /// `rewind` (its daemon and live timeline) on a free port, recording into `data`, in a tmux screen of
    /// `width`×`height`, once its header shows the address apps connect to.
    static func startRewind(data: URL, width: Int = 160, height: Int = 40) throws -> (Tmux, port: Int) {
        let port = FreePort.next()
        let tmux = try Tmux(command: "\(Executables.path("rewind")) --port \(port) --data \(data.path)", width: width,
                            height: height)
        #expect(tmux.waitForScreen { $0.contains("ws://127.0.0.1:\(port)") } != nil, "the header shows the address")
        return (tmux, port)
    }

    /// The screen row of timeline event `index` (its number right-aligned in the 4-column index field).
    private static func row(_ index: Int, in screen: String) -> String? {
        let prefix = String(repeating: " ", count: max(0, 4 - String(index).count)) + "\(index) "
        return screen.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// The index of the first row whose text contains `text`.
    private static func index(ofRowContaining text: String, in screen: String) -> Int? {
        screen.split(separator: "\n").first { $0.contains(text) }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) }
    }

    /// Puts the cursor on event `index` (from the top) and waits until the detail pane shows it.
    private static func select(_ index: Int, in tmux: Tmux) {
        tmux.send("g")
        for _ in 0..<index { tmux.send("j") }
        _ = tmux.waitForScreen { $0.contains("#\(index) ") }
    }

    @Test("a skip's branch rows, a dropped range and actions sent before the connection read true, live and in rewind open")
    func branchAndDroppedRows() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-truth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let (tmux, port) = try Self.startRewind(data: data)
        defer { tmux.kill() }

        let app = try CounterPeer(port: port, dispatched: 1)
        let now = Date().timeIntervalSince1970
        try app.add(1, at: now - 1)  // dispatched a second before the app connected, as its hello says
        try app.add(2, at: now + 0.01)
        try app.add(3, at: now + 0.02)
        try app.send(#"{"type":"dropped","from":4,"to":5}"#)
        try app.add(4, at: now + 0.03, withState: false)
        try app.add(5, at: now + 0.04, withState: false)
        try app.send(#"{"type":"snapshot","seq":5,"state":{"count":15},"reason":"coalesced"}"#)
        try app.add(6, at: now + 0.05)
        app.startAnswering()
        defer { app.stop() }
        // 1–3 actions, 4 dropped, 5–6 actions without state, 7 the snapshot, 8 an action.
        let recorded = try #require(tmux.waitForScreen { $0.contains("8 events") })
        #expect(Self.row(1, in: recorded)?.contains("before connect") == true, "\(recorded)")
        #expect(!recorded.contains(" -0.") && !recorded.contains(" -1."), "no negative time: \(recorded)")
        for index in [5, 6] {
            #expect(Self.row(index, in: recorded)?.contains("? add  state unknown") == true, "\(recorded)")
        }
        let droppedRow = Self.row(4, in: recorded) ?? ""
        #expect(droppedRow.contains("D dropped  the app's outbox") && !droppedRow.contains("state unknown"),
                "the dropped row itself holds the state before the range: \(droppedRow)")
        #expect(Self.row(7, in: recorded)?.contains("state unknown") == false)

        // Inside the dropped range: the tabs say unknown, and Enter refuses to jump.
        Self.select(6, in: tmux)
        tmux.send("2")
        #expect(tmux.waitForScreen { $0.contains("state unknown: not recorded") } != nil, "the Diff tab")
        #expect(!tmux.screen.contains("(no change to the state)"))
        tmux.send("3")
        let stateTab = tmux.waitForScreen { $0.contains("state unknown: not recorded") }
        #expect(stateTab?.contains("count: 6") == false, "the state before the range is not shown: \(stateTab ?? "")")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("not jumping: the state after event 6 is unknown") } != nil)

        // Skip event 2: the daemon has the app recompute 3, 4, 5, 6 on branch 1.
        Self.select(2, in: tmux)
        tmux.send("s")
        let skipped = try #require(tmux.waitForScreen(timeout: 15) { $0.contains("↳ #8 add") }, "\(tmux.screen)")
        let branchRow = try #require(Self.index(ofRowContaining: "↳ #5 add", in: skipped), "\(skipped)")
        let line = try #require(Self.row(branchRow, in: skipped))
        #expect(line.contains("(branch 1)"), "\(line)")
        #expect(line.range(of: #"\+[0-9]+\.[0-9]{3}s"#, options: .regularExpression) != nil,
                "the branch row has its time: \(line)")
        // The pane's last two columns are the session map's.
        #expect(String(line.components(separatedBy: "│")[0].dropLast(2)).trimmingCharacters(in: .whitespaces)
                    .hasSuffix(" 1"),
                "and its ops count: \(line)")

        // Its State tab holds the branch's state: 1 (event 1) + 3 + 4 = 8; the main line there holds 21.
        Self.select(branchRow, in: tmux)
        tmux.send("3")
        let branchState = tmux.waitForScreen { $0.contains("↳ branch 1: recomputes #5") }
        #expect(branchState?.contains("count: 8") == true, "\(branchState ?? tmux.screen)")
        #expect(branchState?.contains("count: 21") == false)

        tmux.send("q")
        #expect(tmux.waitForScreen { $0.contains("Quit rewind?") } != nil)
        tmux.send("y")
        #expect(tmux.waitForExit(), "rewind quit")

        // The saved session reads the same.
        let open = try Tmux(command: "\(Executables.path("rewind")) open \(app.session) --data \(data.path)",
                            width: 160, height: 40)
        defer { open.kill() }
        let saved = try #require(open.waitForScreen { $0.contains("↳ #5 add") }, "\(open.screen)")
        #expect(Self.row(branchRow, in: saved)?.contains("↳ #5 add  (branch 1)") == true, "\(saved)")
        #expect(Self.row(6, in: saved)?.contains("? add  state unknown") == true, "\(saved)")
        open.send("q")
        #expect(open.waitForExit(), "rewind open quit")
    }

    @Test("an action whose patch does not apply: live and in rewind open its row and tabs say unknown and why, Enter refuses, and rewind state agrees (issue 29)")
    func patchThatDoesNotApply() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-truth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let (tmux, port) = try Self.startRewind(data: data)
        defer { tmux.kill() }

        // The issue's app: actions 1 and 2, action 3 whose patch does not apply, the resync's snapshot, action 4.
        let app = try CounterPeer(port: port)
        let now = Date().timeIntervalSince1970
        func action(_ seq: Int, patch: String) -> String {
            #"{"type":"action","seq":\#(seq),"time":\#(now + Double(seq) / 100),"action":{"type":"add","payload":{"add":1}},"patch":\#(patch)}"#
        }
        try app.send(action(1, patch: #"[{"op":"replace","path":"/count","value":1}]"#))
        try app.send(action(2, patch: #"[{"op":"replace","path":"/count","value":2}]"#))
        try app.send(action(3, patch: #"[{"op":"remove","path":"/missing"}]"#))
        try app.send(#"{"type":"snapshot","seq":3,"state":{"count":3},"reason":"resync"}"#)
        try app.send(action(4, patch: #"[{"op":"replace","path":"/count","value":4}]"#))
        // 1–2 actions, 3 the action whose patch failed, 4 its error row, 5 the resync's snapshot, 6 action 4.
        let recorded = try #require(tmux.waitForScreen { $0.contains("6 events") }, "\(tmux.screen)")
        // Then action 6 without action 5 (a gap the app did not announce): out of order, until the next resync.
        try app.send(action(6, patch: #"[{"op":"replace","path":"/count","value":6}]"#))
        try app.send(#"{"type":"snapshot","seq":6,"state":{"count":6},"reason":"resync"}"#)
        try app.send(action(7, patch: #"[{"op":"replace","path":"/count","value":7}]"#))
        for index in [3, 4] {
            #expect(Self.row(index, in: recorded)?.contains("state unknown") == true, "\(recorded)")
        }
        for index in [2, 5, 6] {
            #expect(Self.row(index, in: recorded)?.contains("state unknown") == false, "\(recorded)")
        }
        Self.select(3, in: tmux)
        tmux.send("3")
        let stateTab = try #require(tmux.waitForScreen { $0.contains("state unknown: not recorded") }, "\(tmux.screen)")
        #expect(stateTab.contains("A patch did not apply"), "\(stateTab)")
        #expect(!stateTab.contains("count: 2"), "not the state before, as if it were known: \(stateTab)")
        #expect(!stateTab.contains("dropped range"), "\(stateTab)")
        tmux.send("Enter")
        #expect(tmux.waitForScreen {
            $0.contains("not jumping: the state after event 3 is unknown (not recorded: after a patch that did not")
        } != nil, "\(tmux.screen)")
        // The stretch a message out of order opened: its rows say unknown, and the tabs say why.
        let later = try #require(tmux.waitForScreen { $0.contains("out_of_order") && $0.contains("resync") &&
                                                      Self.index(ofRowContaining: "out_of_order", in: $0) != nil },
                                 "\(tmux.screen)")
        // The error row keeps the state before it; the action after the gap is unknown.
        let errorRow = try #require(Self.index(ofRowContaining: "out_of_order", in: later), "\(later)")
        let gap = try #require((errorRow + 1...errorRow + 3).first { Self.row($0, in: later)?.contains("? add") == true },
                               "\(later)")
        #expect(Self.row(gap, in: later)?.contains("state unknown") == true, "\(later)")
        Self.select(gap, in: tmux)
        tmux.send("3")
        let gapTab = try #require(tmux.waitForScreen { $0.contains("state unknown: not recorded") }, "\(tmux.screen)")
        #expect(gapTab.contains("came out of order"), "\(gapTab)")
        #expect(!gapTab.contains("dropped range"), "\(gapTab)")
        tmux.send("q")
        #expect(tmux.waitForScreen { $0.contains("Quit rewind?") } != nil)
        tmux.send("y")
        #expect(tmux.waitForExit(), "rewind quit")

        // rewind state says the same of event 3, and knows event 5.
        let state = RewindRun.inProcess(["state", app.session, "3", "--data", data.path])
        #expect(state.status != 0)
        #expect(state.stderrText.contains("the state after event 3 was not recorded"), "\(state.stderrText)")
        #expect(state.stderrText.contains("does not apply"), "\(state.stderrText)")
        let known = RewindRun.inProcess(["state", app.session, "5", "--data", data.path])
        #expect(known.status == 0 && known.stdout.joined().contains("3"), "\(known.stdout) \(known.stderr)")

        // The saved session reads the same.
        let open = try Tmux(command: "\(Executables.path("rewind")) open \(app.session) --data \(data.path)",
                            width: 160, height: 40)
        defer { open.kill() }
        let saved = try #require(open.waitForScreen { $0.contains("out_of_order") }, "\(open.screen)")
        #expect(Self.row(3, in: saved)?.contains("state unknown") == true, "\(saved)")
        #expect(Self.row(5, in: saved)?.contains("state unknown") == false, "\(saved)")
        #expect(Self.row(gap, in: saved)?.contains("state unknown") == true, "\(saved)")
        let outOfOrder = RewindRun.inProcess(["state", app.session, "\(gap)", "--data", data.path])
        #expect(outOfOrder.status != 0 && outOfOrder.stderrText.contains("was not recorded"), "\(outOfOrder.stderrText)")
        open.send("q")
        #expect(open.waitForExit(), "rewind open quit")
    }

    @Test("after a daemon restart, the actions the app queued meanwhile follow the reconnect row as 'before connect'")
    func actionsQueuedAcrossARestart() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-truth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = FreePort.next()
        let command = "\(Executables.path("rewind")) --port \(port) --data \(data.path)"
        let first = try Tmux(command: command)
        defer { first.kill() }
        #expect(first.waitForScreen { $0.contains("ws://127.0.0.1:\(port)") } != nil)
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": "ws://127.0.0.1:\(port)"])
        defer { app.closeInput() }
        app.write("add 1\nadd 2\n")
        try #require(first.waitForScreen { $0.contains("2 events") } != nil)
        first.send("q")
        #expect(first.waitForScreen { $0.contains("Quit rewind?") } != nil)
        first.send("y")
        #expect(first.waitForExit(), "the daemon stopped")

        // The app goes on while the daemon is away: its inspector queues these two actions.
        app.write("add 3\nadd 4\n")
        #expect(app.waitForLine { $0 == #"{"count":10}"# } != nil)
        usleep(300_000)
        let second = try Tmux(command: command)
        defer { second.kill() }
        // 2 actions, the reconnect, the 2 queued actions.
        let screen = try #require(second.waitForScreen(timeout: 15) { $0.contains("C reconnect") && $0.contains("5 events") },
                                  "the app came back: \(second.screen)")
        let reconnect = try #require(Self.index(ofRowContaining: "C reconnect", in: screen), "\(screen)")
        for index in (reconnect + 1)...(reconnect + 2) {
            #expect(Self.row(index, in: screen)?.contains("before connect   add") == true,
                    "event \(index) was dispatched before the reconnect: \(screen)")
        }
        second.send("q")
        #expect(second.waitForScreen { $0.contains("Quit rewind?") } != nil)
        second.send("y")
        #expect(second.waitForExit(), "rewind quit")
    }
}
