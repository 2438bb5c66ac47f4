import BenchKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The app's side as a user runs it: the `stress` sample against a separate `rewind serve --headless` process, both
/// the repository's own builds (release for `make bench`; `make bench QUICK=1` takes the debug builds `make test`
/// made, and says so).
///
/// - **Sustained rates**: `stress --layout sections --mix touch --rate R --duration 10` (a 1 MB and a 100 kB state in
///   sections of 100 items, one item changed per action) at each rate of a ladder; a rate is sustained when every
///   action kept its state (no `dropped` range), none was lost, everything was committed, and at least 95 % of the
///   rate was achieved. The ladder stops at the first rate not sustained twice in a row. Each step reports the app's
///   peak resident memory and the processors the daemon used.
/// - **Memory**: bursts dispatched as fast as `stress` can (1 kB, 100 kB and 1 MB states changed one field at a time,
///   a state that grows, and the issue's million-action `--mix mixed` run), each run once with `REWIND_DISABLED=1`
///   and once inspected; the figure is what the inspector added to the app's peak resident memory (`VmHWM`), against
///   the default budget (64 MiB) plus the documented 32 MiB.
@MainActor
enum OutOfProcessBenchmarks {
    /// The default memory budget (`InspectorConfiguration.outboxBudgetBytes`).
    static let budget = 64 << 20
    /// The documented fixed overhead beside it.
    static let overhead = 32 << 20

    /// Where the programs are.
    struct Programs {
        let rewind: String
        let stress: String
        let isRelease: Bool
    }

    /// The repository's release builds of `rewind` and `stress` (`make bench` makes them first); in quick mode its
    /// debug builds (`make test` made them just before), else the release builds.
    static func programs(quick: Bool) throws -> Programs {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)  // `make bench` runs at the root
        let folders = quick ? [(".build/debug", false), (".build/release", true)] : [(".build/release", true)]
        for (folder, isRelease) in folders {
            let rewind = root.appendingPathComponent("\(folder)/rewind").path
            let stress = root.appendingPathComponent("\(folder)/stress").path
            if FileManager.default.isExecutableFile(atPath: rewind), FileManager.default.isExecutableFile(atPath: stress) {
                return Programs(rewind: rewind, stress: stress, isRelease: isRelease)
            }
        }
        throw BenchFailure("the out-of-process benchmarks need `swift build -c release --product rewind` and "
                           + "`--product stress` at the repository root (make bench builds them)")
    }

    /// A `rewind serve --headless` child on a free port with a fresh data directory.
    final class DaemonChild {
        let program: ChildProgram
        let port: Int
        let data: URL

        init(programs: Programs) throws {
            data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-oop-\(UUID().uuidString)")
            port = try Self.freePort()
            program = try ChildProgram(programs.rewind, ["serve", "--headless", "--port", "\(port)",
                                                         "--data", data.path])
            guard program.waitForStderrLine(timeout: 30, { $0.contains("listening on") }) != nil else {
                program.stop()
                throw BenchFailure("rewind serve did not start: \(program.stderrLines.suffix(3))")
            }
        }

        var url: String { "ws://127.0.0.1:\(port)" }

        func stop() {
            program.stop()
            try? FileManager.default.removeItem(at: data)
        }

        /// A loopback port nothing listens on now (bound once to port 0, then released).
        static func freePort() throws -> Int {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw BenchFailure("socket() failed") }
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
            }
            guard bound == 0 else { throw BenchFailure("bind() failed") }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
            }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    /// What one `stress` run reported, and what the daemon spent meanwhile.
    struct StressRun {
        var sent = 0
        var seconds = 0.0
        var withState = 0
        var withoutState = 0
        var lost = 0
        var peakKiB = 0
        var delivered = false
        var handedOver = false
        /// Processors the daemon used from the start of the run until everything was accounted for.
        var daemonProcessors = Double.nan
        var wallSeconds = 0.0
    }

    /// Runs `stress` with `arguments` against `daemon` (nil: `REWIND_DISABLED=1`), and parses its report.
    static func stress(_ programs: Programs, _ arguments: [String], daemon: DaemonChild?) throws -> StressRun {
        let environment = daemon.map { ["REWIND_URL": $0.url] } ?? ["REWIND_DISABLED": "1"]
        let cpuBefore = daemon?.program.processorSeconds
        let start = MonotonicClock.seconds()
        let app = try ChildProgram(programs.stress, arguments + ["--deliver-timeout", "300"], environment: environment)
        let status = app.waitForExit(timeout: 600)
        var run = StressRun()
        run.wallSeconds = MonotonicClock.seconds() - start
        if let before = cpuBefore, let after = daemon?.program.processorSeconds {
            run.daemonProcessors = (after - before) / max(run.wallSeconds, 1e-9)
        }
        guard status == 0, let line = app.stderrLines.last(where: { $0.hasPrefix("{") }),
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw BenchFailure("stress \(arguments.joined(separator: " ")) failed (\(status)): "
                               + "\(app.stderrLines.suffix(3))")
        }
        func int(_ key: String) -> Int { (object[key] as? NSNumber)?.intValue ?? -1 }
        run.sent = int("sent")
        run.seconds = (object["seconds"] as? NSNumber)?.doubleValue ?? 0
        run.withState = int("withState")
        run.withoutState = int("withoutState")
        run.lost = int("lost")
        run.peakKiB = int("maxRSSKiB")
        run.delivered = (object["delivered"] as? Bool) ?? false
        run.handedOver = (object["handedOver"] as? Bool) ?? false
        return run
    }

    static func run(_ context: BenchContext) async throws -> AreaReport {
        let programs = try programs(quick: context.quick)
        let build = programs.isRelease ? "release builds" : "debug builds (quick mode: indicative only)"
        var report = AreaReport(
            title: "Out of process (the app's side as a user runs it)",
            method: "`stress` (samples/stress) against a separate `rewind serve --headless` process, both the "
                + "repository's \(build), on this machine's 2 processors (the app, its inspector and the daemon "
                + "share them). **Sustained rates:** `stress --layout sections --mix touch --rate R --duration "
                + "\(Int(context.pick(full: 10.0, quick: 1.0)))` with a 1 MB and a 100 kB state (sections of 100 "
                + "items, one item changed per action), at each rate of a ladder until one is not sustained twice in "
                + "a row; a rate is sustained when every action kept its state (no `dropped` range), none was lost, "
                + "everything was committed and at least 95 % of the rate was achieved. The in-process figure of the "
                + "same run (App thread area) is the baseline. **Memory:** bursts dispatched as fast as `stress` can, "
                + "each run once with `REWIND_DISABLED=1` and once inspected with the default budget (64 MiB); the "
                + "figure is what the inspector added to the app's peak resident memory (the kernel's `VmHWM`), "
                + "against the budget + 32 MiB.")
        for (label, bytes, ladder) in [
            ("1 MB", 1_000_000, context.pick(full: [1_000, 2_500, 5_000, 8_000, 12_000, 16_000], quick: [1_000])),
            ("100 kB", 100_000, context.pick(full: [5_000, 10_000, 15_000, 20_000, 25_000, 30_000], quick: [5_000])),
        ] {
            report.rows.append(try sustainedRate(label: label, bytes: bytes, ladder: ladder, programs: programs,
                                                 context: context))
        }
        let count = context.pick(full: 300_000, quick: 30_000)
        let bursts: [(String, [String])] = [
            ("1 kB state, one field per action", ["--state-bytes", "1000", "--mix", "touch"]),
            ("100 kB state, one field per action", ["--state-bytes", "100000", "--mix", "touch"]),
            ("1 MB state, one field per action", ["--state-bytes", "1000000", "--mix", "touch"]),
            ("a growing state (from 1 kB: appends, removals, 200-byte writes)",
             ["--state-bytes", "1000", "--mix", "mixed", "--change-bytes", "200"]),
        ]
        for (label, arguments) in bursts {
            report.rows.append(try memoryRow(label: "\(Quantity.grouped(Double(count))) actions, \(label)",
                                             arguments: ["--count", "\(count)"] + arguments, programs: programs,
                                             context: context))
        }
        let million = context.pick(full: 1_000_000, quick: 100_000)
        report.rows.append(try memoryRow(
            label: "\(Quantity.grouped(Double(million))) actions, `stress --mix mixed` (the state grows from 1 kB to "
                + "about 1.2 MB)",
            arguments: ["--count", "\(million)", "--mix", "mixed"], programs: programs, context: context))
        report.notes.append(
            "Lost actions in the memory rows are the budget at work: a burst far faster than the daemon records "
                + "keeps as many actions as the budget holds (about 300,000 one-field actions beside the state at "
                + "64 MiB) and counts the rest lost in the record; a larger `REWIND_OUTBOX_BYTES` keeps more.")
        return report
    }

    /// The ladder of one state size.
    private static func sustainedRate(label: String, bytes: Int, ladder: [Int], programs: Programs,
                                      context: BenchContext) throws -> ReportRow {
        let duration = context.pick(full: 10.0, quick: 1.0)
        let daemon = try DaemonChild(programs: programs)
        defer { daemon.stop() }
        var best: (rate: Int, run: StressRun)?
        var steps: [String] = []
        var failedInARow = 0
        var index = 0
        while index < ladder.count && failedInARow < 2 {
            let rate = ladder[index]
            context.progress("out-of-process: \(label) at \(rate)/s for \(duration) s")
            let run = try stress(programs, ["--state-bytes", "\(bytes)", "--layout", "sections", "--mix", "touch",
                                            "--rate", "\(rate)", "--duration", "\(duration)"], daemon: daemon)
            let achieved = Double(run.sent) / max(run.seconds, 1e-9)
            let sustained = run.withoutState == 0 && run.lost == 0 && run.delivered
                && achieved >= 0.95 * Double(rate)
            steps.append("\(Quantity.grouped(Double(rate)))/s → \(Quantity.grouped(achieved))/s achieved, "
                         + "\(run.withoutState) without state, \(run.lost) lost, app peak "
                         + "\(Quantity.size(Double(run.peakKiB) * 1024)), daemon "
                         + String(format: "%.2f", run.daemonProcessors) + " processors"
                         + (sustained ? "" : " **(not sustained)**"))
            if sustained {
                best = (rate, run)
                failedInARow = 0
                index += 1
            } else {
                failedInARow += 1
                if failedInARow == 1 { continue }  // the same rate once more
            }
        }
        let detail = best.map {
            "\(duration) s each; at \(Quantity.grouped(Double($0.rate)))/s the app's peak resident memory was "
                + "\(Quantity.size(Double($0.run.peakKiB) * 1024)) and the daemon used "
                + String(format: "%.2f", $0.run.daemonProcessors) + " processors. Steps: "
        } ?? "Steps: "
        return ReportRow(
            "out of process: highest rate with no coalescing, \(label) state (`stress --layout sections --mix touch` "
                + "against `rewind serve`)",
            best.map { .rate(Double($0.rate), unit: "actions/s") } ?? .text("none of the ladder"),
            detail: detail + steps.joined(separator: "; "),
            target: Target(.atLeast, bytes >= 1_000_000 ? 5_000 : 20_000,
                           "≥ \(bytes >= 1_000_000 ? "5,000" : "20,000") actions/s"))
    }

    /// One burst, bare and inspected.
    private static func memoryRow(label: String, arguments: [String], programs: Programs,
                                  context: BenchContext) throws -> ReportRow {
        context.progress("out-of-process memory: \(label)")
        let bare = try stress(programs, arguments, daemon: nil)
        let daemon = try DaemonChild(programs: programs)
        defer { daemon.stop() }
        let inspected = try stress(programs, arguments, daemon: daemon)
        let added = Double(inspected.peakKiB - bare.peakKiB) * 1024
        let accounted = inspected.withState + inspected.withoutState + inspected.lost == inspected.sent
        return ReportRow(
            "out of process: peak resident memory the inspector adds, \(label)",
            .bytes(added),
            detail: "app peak \(Quantity.size(Double(inspected.peakKiB) * 1024)) inspected, "
                + "\(Quantity.size(Double(bare.peakKiB) * 1024)) with `REWIND_DISABLED=1`; dispatched at "
                + "\(Quantity.grouped(Double(inspected.sent) / max(inspected.seconds, 1e-9)))/s; recorded with state "
                + "\(Quantity.grouped(Double(inspected.withState))), without (coalesced) "
                + "\(Quantity.grouped(Double(inspected.withoutState))), lost (counted in the record) "
                + "\(Quantity.grouped(Double(inspected.lost)))\(accounted ? "" : " — NOT ALL ACCOUNTED FOR"); "
                + "all accounted for after \(Quantity.duration(inspected.wallSeconds * 1e9))",
            target: Target(.atMost, Double(budget + overhead), "≤ budget + 32 MiB (96 MiB)"),
            met: added <= Double(budget + overhead) && accounted && inspected.handedOver)
    }
}
