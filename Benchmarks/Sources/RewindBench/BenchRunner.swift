import BenchKit
import Foundation

/// Runs the selected areas and writes the report.
///
/// Areas run in the order that keeps the figures clean — ingest first (the memory figure must not include the
/// other areas' allocations), the session file built once for seek and TUI — and are reported in the issue's order.
///
/// Threading: main actor (the store benchmarks need it).
@MainActor
enum BenchRunner {
    static func run(_ options: BenchOptions) async throws -> BenchmarkReport {
        let context = BenchContext(quick: options.quick, startedAt: MonotonicClock.seconds())
        let date = Date()
        let machine = MachineInfo.current()
        #if DEBUG
        context.progress("warning: a debug build — the figures mean nothing; use `swift run -c release`")
        #endif
        let order: [BenchArea] = [.ingest, .encode, .memo, .wire, .appThread, .outOfProcess, .recorderPath, .timeTravel, .seek,
                                  .history, .tui, .mcp, .search]
        var results: [BenchArea: AreaReport] = [:]
        var session: RecordedSession?
        defer { session?.remove() }
        for area in order where options.runs(area) {
            context.progress("— \(area.rawValue)")
            let start = MonotonicClock.seconds()
            let load = MachineLoad.snapshot()
            var report: AreaReport
            switch area {
            case .ingest: report = try await IngestBenchmarks.run(context)
            case .encode: report = try EncodeBenchmarks.run(context)
            case .memo: report = try await MemoBenchmarks.run(context)
            case .wire: report = try WireBenchmarks.run(context)
            case .appThread: report = try await AppThreadBenchmarks.run(context)
            case .outOfProcess: report = try await OutOfProcessBenchmarks.run(context)
            case .recorderPath: report = try await RecorderPathBenchmarks.run(context)
            case .timeTravel: report = try await TimeTravelBenchmarks.run(context)
            case .search: report = try SearchBenchmarks.run(context)
            case .seek, .history, .tui, .mcp:
                if session == nil {
                    let events = context.pick(full: 1_000_000, quick: 100_000)
                    context.progress("recording a \(events)-event session")
                    session = try RecordedSession.build(events: events)
                }
                switch area {
                case .seek: report = try SeekBenchmarks.run(context, session: session!)
                case .history: report = try HistoryBenchmarks.run(context, session: session!)
                case .mcp: report = try McpBenchmarks.run(context, session: session!)
                default: report = try TUIBenchmarks.run(context, session: session!)
                }
            }
            report.seconds = MonotonicClock.seconds() - start
            let loadAfter = MachineLoad.snapshot()
            report.othersShare = loadAfter.othersShare(since: load)
            report.ownShare = loadAfter.ownShare(since: load)
            context.progress(area.rawValue + String(
                format: ": the benchmark used %.0f %%, other processes %.0f %% of the machine",
                report.ownShare * 100, report.othersShare * 100))
            results[area] = report
            for row in report.rows where row.met == false {
                context.progress("missed: \(row.figure): \(row.value) (target \(row.target?.text ?? ""))")
            }
        }
        compareWithInProcessRates(&results)
        var command = options.command ?? (options.quick ? "make bench QUICK=1" : "make bench")
        #if DEBUG
        command += " (DEBUG BUILD: figures not meaningful)"
        #endif
        return BenchmarkReport(
            command: command, quick: options.quick, date: date, machine: machine,
            loadAverageAtEnd: MachineInfo.currentLoadAverage(), toolchain: toolchain(),
            areas: BenchArea.allCases.compactMap { results[$0] },
            seconds: MonotonicClock.seconds() - context.startedAt, areaNames: BenchArea.allCases.map(\.rawValue))
    }

    /// Gives each out-of-process rate row the in-process figure of the same run as its baseline (the App thread
    /// area's highest sustained rate with the memo on, for the same state size).
    private static func compareWithInProcessRates(_ results: inout [BenchArea: AreaReport]) {
        guard let inProcess = results[.appThread], var outOfProcess = results[.outOfProcess] else { return }
        for index in outOfProcess.rows.indices {
            let row = outOfProcess.rows[index]
            guard row.figure.hasPrefix("out of process: highest rate") else { continue }
            let size = row.figure.contains("1 MB") ? "1 MB" : "100 kB"
            guard let baseline = inProcess.rows.first(where: {
                $0.figure.hasPrefix("highest sustained action rate, \(size) state, memo on")
            }) else { continue }
            outOfProcess.rows[index].baseline = "in process, same run: \(baseline.value)"
            if let mine = row.value.number, let theirs = baseline.value.number, theirs > 0 {
                outOfProcess.rows[index].ratio = "\(Quantity.multiple(mine / theirs)) of in process"
            }
        }
        results[.outOfProcess] = outOfProcess
    }

    /// The first line of `swift --version`, plus the build configuration.
    private static func toolchain() -> String {
        #if DEBUG
        let configuration = "debug build"
        #else
        let configuration = "release build (`-c release`)"
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
            return "\(line ?? "swift (version unknown)"), \(configuration)"
        } catch {
            return "swift (version unknown), \(configuration)"
        }
    }
}
