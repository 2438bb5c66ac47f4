import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The soak test: many apps stream into a real `rewind serve --headless` while their connections are reset at
/// random (on both sides, or on the app's side only: half-open), the disk stalls, slow viewers stop reading, hostile
/// peers send garbage and the daemon is restarted. Afterwards each app run is recorded in one session that accounts
/// for every action it sent (recorded once, or counted in a `lost` row), and the daemon's memory is back near where
/// it started.
///
/// `make test` runs it briefly (`REWIND_SOAK_SECONDS`, default 12); `make soak` runs it for minutes
/// (`REWIND_SOAK_SECONDS=240`) and prints the figures that go in BENCHMARKS.md. Under a sanitizer
/// (`REWIND_TEST_TIME_SCALE` > 1) it runs four apps instead of ten (`REWIND_SOAK_APPS`).
@Suite("Soak: apps, resets, slow viewers, hostile peers and restarts", .serialized)
struct SoakTests {
    /// What one soak run is made of.
    struct Plan {
        var seconds: Double
        var apps: Int

        /// How far apart the faults are, as a multiple of the brief run's 0.3–1.2 s. The brief run packs faults
        /// (a reset about every 2 s, a restart about every 8 s); kept up for minutes, that rate leaves apps that
        /// resend their unacknowledged backlog after every fault no time to catch up on two cores, and the run
        /// measures the machine instead of the recording. Longer runs space them four times as far (a reset about
        /// every 8 s, a daemon restart about every 30 s, plus the two planned restarts).
        var faultSpacing: Double { seconds > 30 ? 4 : 1 }

        /// The share of the brief run's action rates the apps dispatch at. The brief run offers about 8,300 actions a
        /// second (ten apps, up to 2,000/s each with a 20 kB state), more than a debug daemon on two cores records
        /// while it is restarted and its connections reset: for 12 s its backlog drains within the apps' delivery
        /// timeout, for minutes it cannot, and apps end with their actions still queued (reported undelivered, not
        /// lost). A long run is about faults over time, not throughput (`make bench`'s ingest rows measure that):
        /// it offers a quarter of those rates.
        var rateShare: Double { seconds > 30 ? 0.25 : 1 }

        static var fromEnvironment: Plan {
            let environment = ProcessInfo.processInfo.environment
            return Plan(seconds: environment["REWIND_SOAK_SECONDS"].flatMap(Double.init) ?? 12,
                        apps: environment["REWIND_SOAK_APPS"].flatMap(Int.init) ?? (TestTime.scale > 1 ? 4 : 10))
        }
    }

    /// One app of the soak: a `stress` process and what it was asked to do.
    struct App {
        let process: ChildProcess
        let arguments: [String]
    }

    @Test("every action of every app is accounted for, and the daemon's memory returns near its baseline")
    func soak() throws {
        let plan = Plan.fromEnvironment
        // The disk under the data directory stalls now and then (not under a sanitizer: its runtime must come first
        // among the daemon's libraries, and the preloaded one would precede it).
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let disk = TestTime.scale == 1 ? try? FrozenDisk(directory: data) : nil
        defer { disk?.thaw() }
        let daemon = try DaemonProcess(dataDirectory: data, environment: disk?.environment ?? [:])
        defer { daemon.tearDown() }
        let proxy = try ResettingProxy(targetPort: daemon.port)
        defer { proxy.stop() }
        usleep(500_000)
        let baselineKiB = Self.residentKiB(daemon.process.pid)

        var generator = SystemRandomNumberGenerator()
        var apps: [App] = []
        for index in 0..<plan.apps {
            // A mix of small and large states, slow and fast apps; the large, fast ones coalesce.
            let stateBytes = [1_000, 20_000, 200_000][index % 3]
            let rate = Int(Double([200, 2_000, 500][index % 3]) * plan.rateShare)
            let arguments = ["--duration", String(plan.seconds), "--rate", "\(rate)", "--state-bytes", "\(stateBytes)",
                             "--seed", "\(index + 1)",
                             // After minutes of faults an app may still be catching up: it gets half the run's length.
                             "--deliver-timeout", String(TestTime.seconds(max(60, plan.seconds / 2)))]
            let process = try ChildProcess(Executables.path("stress"), arguments,
                                           environment: ["REWIND_URL": "ws://127.0.0.1:\(proxy.port)"])
            apps.append(App(process: process, arguments: arguments))
        }

        var viewers: [SlowViewer] = []
        var hostile = 0, restarts = 0, resets = 0, halfOpen = 0, stalls = 0
        var daemonLog: [String] = []
        let start = Date()
        let end = Date(timeIntervalSinceNow: plan.seconds)
        // At least one restart of each kind: killed a third of the way in, stopped gracefully at two thirds.
        var plannedRestarts: [(at: Double, signal: Int32)] = [(plan.seconds / 3, SIGKILL), (plan.seconds * 2 / 3, SIGTERM)]
        while Date() < end {
            usleep(UInt32(Double(UInt32.random(in: 300_000...1_200_000, using: &generator)) * plan.faultSpacing))
            if let next = plannedRestarts.first, Date().timeIntervalSince(start) >= next.at {
                plannedRestarts.removeFirst()
                daemonLog += try Self.restart(daemon, signal: next.signal)
                restarts += 1
                continue
            }
            switch Int.random(in: 0..<13, using: &generator) {
            case 0..<3:
                resets += proxy.reset()
            case 3..<5:
                // The app's side only: the daemon's side stays open until a probe (the app's reconnect) or its
                // keepalive finds it silent.
                halfOpen += proxy.resetAppSide()
            case 5..<7:
                if viewers.count < 10, let viewer = try? SlowViewer(port: daemon.port) { viewers.append(viewer) }
            case 7..<10:
                HostilePeer.attack(port: daemon.port, using: &generator)
                hostile += 1
            case 10, 11:
                guard let disk else { continue }
                disk.freeze()
                usleep(UInt32(Double(UInt32.random(in: 300_000...1_500_000, using: &generator)) * plan.faultSpacing))
                disk.thaw()
                stalls += 1
            default:
                // A restart: graceful or not, on the same port and data directory.
                daemonLog += try Self.restart(daemon, signal: Bool.random(using: &generator) ? SIGTERM : SIGKILL)
                restarts += 1
            }
        }

        for app in apps {
            #expect(app.process.waitForExit(timeout: max(120, plan.seconds / 2 + 60)) == 0,
                    "stress \(app.arguments) did not finish")
        }
        for viewer in viewers { viewer.close() }
        // Near its baseline: the finished runs' states are freed and given back (AddressSanitizer's quarantine keeps
        // freed memory on purpose, so under a sanitizer the figure is printed, not checked).
        let allowanceKiB = TestTime.scale > 1 ? Int.max / 2 : 48 * 1024
        let settled = ProcessResources.settle(timeout: 10) {
            Self.residentKiB(daemon.process.pid) <= baselineKiB + allowanceKiB
        }
        let finalKiB = Self.residentKiB(daemon.process.pid)
        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit(timeout: 20) == 0)
        daemonLog += daemon.process.stderrLines

        var sessions = 0, recorded = 0, declaredLost: Int64 = 0, unaccounted = 0
        for app in apps {
            let sent = try Self.sentActions(app.process)
            let account = try SessionAccount.of(instancePID: app.process.pid, in: daemon.dataDirectory)
            if !account.accounts(for: sent) || account.sessions != 1 { unaccounted += 1 }
            #expect(account.sessions == 1, "stress \(app.arguments): one app run in \(account.sessions) sessions")
            #expect(account.accounts(for: sent),
                    """
                    stress \(app.arguments): sent \(sent), \(account); not recorded: \(account.missing(of: sent)); \
                    the daemon's log of its sessions:
                    \(daemonLog.filter { line in
                        account.sessionIDs.contains { line.contains($0) } || !line.contains("session 20")
                    }.joined(separator: "\n"))
                    recorded twice: \(account.duplicates.joined(separator: "\n"))
                    the session ends with:
                    \(account.tails.joined(separator: "\n"))
                    stress said: \(app.process.stderrLines.suffix(20).joined(separator: "\n"))
                    """)
            sessions += account.sessions
            recorded += account.recorded.count
            declaredLost += account.declaredLost
        }
        let figures = """
            soak: \(plan.apps) apps, \(plan.seconds) s, \(resets) connection resets, \(halfOpen) half-open \
            connections, \(stalls) disk stalls, \(viewers.count) slow viewers, \(hostile) hostile peers, \(restarts) daemon \
            restarts; \(sessions) sessions, \(recorded) actions recorded, \
            \(declaredLost) declared lost; daemon resident memory \
            \(baselineKiB / 1024) MiB at start, \(finalKiB / 1024) MiB at the end
            """
        print(figures)
        if let path = ProcessInfo.processInfo.environment["REWIND_SOAK_REPORT"], settled {
            Self.writeReport(figures, unaccounted: unaccounted, plan: plan, to: path)
        }
        #expect(settled, "daemon memory \(finalKiB) KiB after the soak, \(baselineKiB) KiB at start")
    }

    /// Writes the figures of a run `make soak` made for BENCHMARKS.md (`make bench` includes the file), unless an
    /// app's actions were not all accounted for (a failed soak has no figures to quote).
    /// The apps' action rates in `plan`, for the report.
    static func rates(_ plan: Plan) -> String {
        [200, 2_000, 500].map { "\(Int(Double($0) * plan.rateShare))" }.joined(separator: ", ") + " actions/s"
    }

    static func writeReport(_ figures: String, unaccounted: Int, plan: Plan, to path: String) {
        guard unaccounted == 0 else { return }
        let formatter = ISO8601DateFormatter()
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first ?? "?"
        let text = """
            ## Soak

            `make soak SOAK_SECONDS=\(Int(plan.seconds))` (debug build; \(formatter.string(from: Date())), \
            \(ProcessInfo.processInfo.activeProcessorCount) processors, load average \(load) at the end). \(plan.apps) \
            `stress` apps (1 kB, 20 kB and 200 kB states at \(Self.rates(plan))) stream through a proxy that \
            resets their connections at random (about every \(Int(2 * plan.faultSpacing)) s: on both sides, or on the \
            app's side only, leaving the daemon's half-open), into a `rewind serve --headless` whose disk stalls now and \
            then, and that is killed (SIGKILL) and stopped (SIGTERM) and restarted on the same port and data directory, \
            while slow `rewind tail` viewers stop reading and hostile peers send garbage. Afterwards each app run is \
            recorded in one session (checked) that holds every action the app sent exactly once or counted in a `lost` \
            row (checked), and the daemon's resident memory is back within 48 MiB of its baseline (checked).

            \(figures)

            """
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Stops the daemon with `signal` and starts it again on the same port and data directory; returns the stopped
    /// daemon's log. A graceful stop must end within 10 s; the port may take a moment to be free again.
    static func restart(_ daemon: DaemonProcess, signal: Int32) throws -> [String] {
        daemon.process.signal(signal)
        // A graceful stop first records what the daemon has received (up to its backlog bound, 8 MiB per app):
        // with ten apps streaming into a loaded debug build that takes more than 10 s, so it gets 30.
        if daemon.process.waitForExit(timeout: 30) == nil {
            Issue.record("the daemon did not stop within 30 s of signal \(signal)\(Self.threadDump(daemon.process.pid))")
            daemon.process.signal(SIGKILL)
            daemon.process.waitForExit(timeout: 10)
        }
        let log = daemon.process.stderrLines + ["--- restart (signal \(signal))"]
        var attempt = 0
        while true {
            do {
                try daemon.restart()
                return log
            } catch where attempt < 20 {
                attempt += 1
                usleep(250_000)
            }
        }
    }

    /// Where the threads of a hung process are (with gdb, when the machine has it), saved to a file named in the
    /// returned text.
    static func threadDump(_ pid: Int32) -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return "" }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-hung-\(pid).txt").path
        let gdb = Process()
        gdb.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
        gdb.arguments = ["-p", "\(pid)", "-batch", "-ex", "thread apply all bt 25"]
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        gdb.standardOutput = FileHandle(forWritingAtPath: path)
        gdb.standardError = FileHandle.nullDevice
        guard (try? gdb.run()) != nil else { return "" }
        gdb.waitUntilExit()
        return "; its threads: \(path)"
    }

    /// The number of actions a finished `stress` says it dispatched.
    static func sentActions(_ process: ChildProcess) throws -> Int64 {
        let line = try #require(process.stderrLines.last { $0.hasPrefix("{") }, "stress printed no report")
        let report = try JSONValue(parsing: line)
        guard case .int(let sent)? = report[try JSONPointer("/sent")] else {
            throw DaemonError("stress report without 'sent': \(line)")
        }
        return sent
    }

    /// Resident memory of a process, KiB (Linux).
    static func residentKiB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// `rewind tail` with its standard output never read: once the pipe is full it stops reading its socket, so the
/// daemon's queue to it must be bounded.
final class SlowViewer {
    private let process = Process()
    private let output = Pipe()

    init(port: Int) throws {
        process.executableURL = URL(fileURLWithPath: Executables.path("rewind"))
        process.arguments = ["tail", "--port", "\(port)"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func close() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { close() }
}

/// Short-lived hostile connections: garbage, oversized numbers, a patch bomb, a peer that never says hello.
enum HostilePeer {
    static func attack(port: Int, using generator: inout SystemRandomNumberGenerator) {
        guard let client = try? RawWebSocketClient(port: port, timeout: 1) else { return }
        guard (try? client.handshake()) != nil else { return }
        let instance = UUID().uuidString
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            try? client.sendText("{\"type\":\"hello\",\"protocol\":1,\"app\":{\"name\":\"garbage\"")
        case 1:
            try? client.sendText(AppFrames.hello(name: "hostile", instance: instance))
            try? client.sendText(
                #"{"type":"action","seq":1,"time":1e300,"action":{"type":"x","payload":null},"patch":[]}"#)
        case 2:
            try? client.sendText(AppFrames.hello(name: "hostile", instance: instance))
            let copies = (0..<25).map { _ in #"{"op":"copy","from":"","path":"/a-"}"# }
            try? client.sendText(#"{"type":"action","seq":1,"time":1,"action":{"type":"x","payload":null},"#
                + #""patch":[{"op":"add","path":"/a","value":[]},"# + copies.joined(separator: ",") + "]}")
        default:
            break  // connected, upgraded, silent
        }
        usleep(50_000)
        client.drop()
    }
}

/// What the recorded sessions of one app hold: the app's action numbers recorded as actions, and the number of
/// actions that markers declare lost.
struct SessionAccount: CustomStringConvertible {
    var sessions = 0
    var sessionIDs: [String] = []
    /// The last few events of each session, for a failure's message.
    var tails: [String] = []
    var recorded = Set<Int64>()
    var recordedTwice = 0
    /// For the first few actions recorded twice: both rows, and the rows just before the second (what led to it).
    var duplicates: [String] = []
    var declaredLost: Int64 = 0
    var actionsWithoutNumber = 0

    /// True when every one of `sent` actions is recorded exactly once or declared lost, and nothing else is there.
    func accounts(for sent: Int64) -> Bool {
        recordedTwice == 0 && actionsWithoutNumber == 0
            && recorded.allSatisfy { (1...max(1, sent)).contains($0) }
            && Int64(recorded.count) + declaredLost == sent
    }

    /// The first few runs of action numbers in 1...`sent` that were not recorded (`from–to`).
    func missing(of sent: Int64, most: Int = 8) -> String {
        var runs: [String] = []
        var start: Int64?
        for seq in 1...max(1, sent + 1) {
            let absent = seq <= sent && !recorded.contains(seq)
            if absent, start == nil { start = seq }
            if !absent, let first = start {
                runs.append(first == seq - 1 ? "\(first)" : "\(first)–\(seq - 1)")
                start = nil
                if runs.count == most { break }
            }
        }
        return runs.isEmpty ? "none" : runs.joined(separator: ", ")
    }

    var description: String {
        "\(sessions) session(s), \(recorded.count) actions recorded, \(declaredLost) declared lost, "
            + "\(recordedTwice) recorded twice, \(actionsWithoutNumber) without a number"
    }

    /// Reads every session of the app process `pid` (its instance is `host:pid:start`) from `directory`.
    static func of(instancePID pid: Int32, in directory: URL) throws -> SessionAccount {
        let store = try SessionStore(directory: directory)
        var account = SessionAccount()
        for session in try store.listSessions() where session.instance?.split(separator: ":").dropFirst().first
            == Substring("\(pid)")
        {
            account.sessions += 1
            account.sessionIDs.append(session.id.rawValue)
            let reader = try store.openSession(session.id)
            guard reader.eventCount > 0 else { continue }
            let events = try reader.events(1...reader.eventCount)
            account.tails += events.suffix(6).map(Self.row)
            var firstRow: [Int64: Int64] = [:]
            for (position, event) in events.enumerated() {
                switch event.kind {
                case .action:
                    guard let seq = event.appSeq else { account.actionsWithoutNumber += 1; continue }
                    if !account.recorded.insert(seq).inserted {
                        account.recordedTwice += 1
                        if account.duplicates.count < 3 {
                            let before = events[max(0, position - 4)..<position].map(Self.row).joined(separator: " | ")
                            account.duplicates.append("app \(seq) at #\(firstRow[seq].map(String.init) ?? "?") and "
                                                      + "#\(event.index) (after: \(before))")
                        }
                    } else {
                        firstRow[seq] = event.index
                    }
                default:
                    account.declaredLost += lostActions(in: event)
                }
            }
        }
        return account
    }

    /// One event as a line of a failure's message.
    static func row(_ event: RecordedEvent) -> String {
        "#\(event.index) \(event.kind.rawValue) \(event.label ?? "") app \(event.appSeq.map(String.init) ?? "-") "
            + "\((event.detail ?? "").prefix(100))"
    }

    /// How many actions a marker event says were lost: a `dropped` row labelled `lost` carries
    /// `{"from", "to", "actionsLost"}` (docs/SESSION-FORMAT.md, event kinds).
    static func lostActions(in event: RecordedEvent) -> Int64 {
        guard event.kind == .dropped, event.label == "lost",
              case .int(let count)? = event.action?[try! JSONPointer("/actionsLost")] else { return 0 }
        return count
    }
}
