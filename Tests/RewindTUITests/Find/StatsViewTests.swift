import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire
import Testing
import RewindTestSupport

/// Issue 33's stats view (`S`): what each label cost, counted off the UI thread, sortable, and Enter going to the
/// label's events — on a session file and on the same session in memory.
@Suite("Stats view: the cost of each label")
struct StatsViewTests {
    /// The same 300-event session in a file and in memory: `tick` (fast, small) at most events, `load` every 50th
    /// (slow, large patches), and one `boot` first.
    private static func sessions() throws -> (file: SessionTimelineSource, memory: InMemoryTimelineDataSource,
                                              id: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-stats-\(UUID().uuidString)")
        let store = try SessionStore(directory: directory)
        let initial: JSONValue = ["n": 0, "blob": ""]
        let recording = try store.createSession(appName: "s", protocolVersion: 2, initialState: initial,
                                                startedAt: Date(timeIntervalSince1970: Fixtures.start))
        let memory = InMemoryTimelineDataSource()
        memory.addSession(id: recording.id.rawValue, appName: "s", instance: "s:1", startedAt: Fixtures.start,
                          status: .ended, initialState: initial)
        var previous = initial
        for index in 1...300 {
            let label = index == 1 ? "boot" : index % 50 == 0 ? "load" : "tick"
            let blob = label == "load" ? String(repeating: "x", count: 20 * index) : ""
            let state: JSONValue = ["n": .int(Int64(index)), "blob": .string(blob)]
            let patch = JSONPatch.diff(from: previous, to: state)
            let micros = label == "load" ? Double(1_000 + index) : label == "boot" ? 400 : Double(index % 7)
            recording.append(NewEvent(appSeq: Int64(index), time: Fixtures.start + Double(index), label: label,
                                      action: ["n": .int(Int64(index))], patch: patch, reducerMicros: micros),
                             stateAfter: state)
            _ = try memory.append(session: recording.id.rawValue, time: Fixtures.start + Double(index), label: label,
                                  action: ["n": .int(Int64(index))], patch: patch, reducerMicros: micros,
                                  stateAfter: state)
            previous = state
        }
        recording.finish(endState: .clean)
        return (SessionTimelineSource(store: store, daemon: nil, only: recording.id), memory, recording.id.rawValue,
                directory)
    }

    @Test("a session file's one-scan statistics equal the row-by-row count of the same session in memory")
    func fileMatchesMemory() throws {
        let (file, memory, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fileStatistics = try file.sessionStatistics(session: id, count: 300, progress: TimelineSearchProgress())
        let memoryStatistics = try memory.sessionStatistics(session: id, count: 300, progress: TimelineSearchProgress())
        #expect(fileStatistics == memoryStatistics)
        let inFile = fileStatistics.labels
        #expect(inFile.map(\.label) == ["tick", "load", "boot"], "most frequent first")
        let load = try #require(inFile.first { $0.label == "load" })
        #expect(load.count == 6 && load.firstIndex == 50 && load.reducerMaxMicros == 1_300)
        #expect(load.reducerTotalMicros == Double((1...6).map { 1_000 + 50 * $0 }.reduce(0, +)))
        #expect(load.reducerP99Micros == 1_300, "nearest rank of 6 times: the largest")
        #expect(load.patchBytesMax > 6_000 && load.patchBytesTotal > load.patchBytesMax)
    }

    @Test("counted in parts (as the stats view's threads count a long session) and merged, the table is the same")
    func mergedPartsMatchWhole() throws {
        let (_, _, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = try SessionStore(directory: directory).openSession(try SessionID(validating: id))
        let whole = try reader.labelStatistics(in: 1...300)
        for cuts in [[150], [1, 2], [49, 50, 51, 299], Array(stride(from: 7, to: 300, by: 7))] {
            let bounds = [0] + cuts + [300]
            var merged = LabelStatistics.Builder()
            for (low, high) in zip(bounds, bounds.dropFirst()) {
                merged.merge(try reader.labelTallies(in: Int64(low + 1)...Int64(high)))
            }
            #expect(merged.statistics() == whole, "cut after \(cuts)")
            var single = LabelStatistics.Builder()
            single.merge(try reader.labelTallies(in: 1...300))
            #expect(merged.summary() == single.summary(), "the rankings too, cut after \(cuts)")
        }
        var empty = LabelStatistics.Builder()
        empty.merge(LabelStatistics.Builder())
        #expect(empty.statistics().isEmpty)
    }

    @Test("S shows the table once counted; c t p z sort by count, total, p99, patches; Enter goes to the label")
    func keys() throws {
        let (file, _, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = TimelineApp(dataSource: file, actions: NoActions(), initialSession: id)
        app.handle(.character("S"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        var screen = app.renderOnce(width: 100, height: 30)
        #expect(screen.contains("Stats of 300 events: 3 labels"), "\(screen)")
        let rows = { (screen: String) in
            screen.split(separator: "\n").compactMap { line -> String? in
                let cells = line.split(separator: "│", omittingEmptySubsequences: false)
                guard cells.count >= 3 else { return nil }
                let label = cells[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init)
                return ["tick", "load", "boot"].contains(label ?? "") ? label : nil
            }
        }
        #expect(rows(screen) == ["tick", "load", "boot"], "by count: \(screen)")
        #expect(screen.contains("▼COUNT"))
        app.handle(.character("t"))
        screen = app.renderOnce(width: 100, height: 30)
        #expect(rows(screen) == ["load", "tick", "boot"] && screen.contains("▼TOTAL"), "by total: \(screen)")
        app.handle(.character("p"))
        #expect(rows(app.renderOnce(width: 100, height: 30)) == ["load", "boot", "tick"], "by p99")
        app.handle(.character("z"))
        #expect(rows(app.renderOnce(width: 100, height: 30)).first == "load", "by patch bytes")
        app.handle(.character("c"))
        app.handle(.down)  // load
        app.handle(.enter)
        screen = app.renderOnce(width: 100, height: 30)
        #expect(!screen.contains("Stats of"), "Enter closes the view")
        #expect(app.model.cursor == 50, "on load's first event")
        #expect(screen.contains("event 50: the first of 6 load events; n N for the next and previous"), "\(screen)")
        app.handle(.character("n"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.cursor == 100, "n walks the label's events")
        app.handle(.character("S"))
        app.handle(.escape)
        #expect(!app.renderOnce(width: 100, height: 30).contains("Stats of"), "Esc closes")
    }

    @Test("the rankings: the slowest reducers and largest patches of single events, as counted row by row; ties rank the earlier event first")
    func rankings() throws {
        let (file, memory, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let statistics = try file.sessionStatistics(session: id, count: 300, progress: TimelineSearchProgress())
        #expect(statistics == (try memory.sessionStatistics(session: id, count: 300, progress: TimelineSearchProgress())))
        #expect(statistics.slowest.count == SessionStatistics.rankingLimit)
        #expect(statistics.slowest.prefix(7).map(\.index) == [300, 250, 200, 150, 100, 50, 1], "load, then boot")
        #expect(statistics.slowest.first?.measure == 1_300 && statistics.slowest.first?.label == "load")
        // Ties (the ticks' times repeat every 7 events) rank the earlier event first.
        let ticks = statistics.slowest.dropFirst(7)
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0.ranks(before: $1) })
        #expect(ticks.first.map { $0.measure == 6 && $0.index == 6 } == true, "\(ticks.prefix(3))")
        #expect(statistics.largest.prefix(6).map(\.index) == [300, 250, 200, 150, 100, 50], "the loads' blobs")
    }

    @Test("Tab shows the slowest reducers, then the largest patches, one row per event; Enter goes to the event")
    func rankingTables() throws {
        let (file, _, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = TimelineApp(dataSource: file, actions: NoActions(), initialSession: id)
        app.handle(.character("S"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.renderOnce(width: 100, height: 30).contains("Tab slowest/largest events"))
        app.handle(.tab)
        var screen = app.renderOnce(width: 100, height: 30)
        #expect(screen.contains("Stats of 300 events: 50 slowest reducers"), "\(screen)")
        #expect(screen.contains("EVENT   ▼REDUCER  LABEL"), "\(screen)")
        let firstRow = screen.split(separator: "\n").first { $0.contains("load") }.map(String.init) ?? ""
        #expect(firstRow.contains("300") && firstRow.contains("1.3ms"), "\(screen)")
        app.handle(.down)  // event 250
        app.handle(.enter)
        screen = app.renderOnce(width: 100, height: 30)
        #expect(!screen.contains("Stats of"), "Enter closes the view")
        #expect(app.model.cursor == 250)
        #expect(screen.contains("event 250 (load): its reducer took 1.3ms"), "\(screen)")
        app.handle(.character("S"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        app.handle(.tab)
        app.handle(.tab)
        screen = app.renderOnce(width: 100, height: 30)
        #expect(screen.contains("Stats of 300 events: ") && screen.contains(" largest patches"), "\(screen)")
        #expect(screen.contains("▼PATCH"), "\(screen)")
        app.handle(.enter)
        #expect(app.model.cursor == 300, "the largest patch: the last load's")
        app.handle(.character("S"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        app.handle(.backTab)
        #expect(app.renderOnce(width: 100, height: 30).contains(" largest patches"), "S-Tab goes back, wrapping")
        app.handle(.character("t"))
        #expect(app.renderOnce(width: 100, height: 30).contains("▼TOTAL"), "a sort key shows the labels again")
    }

    @Test("from 60 to 200 columns the table fits, narrow screens leaving out the last columns; the footer names the keys",
          arguments: [(60, 20), (80, 24), (120, 40), (200, 60)])
    func sizes(_ width: Int, _ height: Int) throws {
        let (file, _, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = TimelineApp(dataSource: file, actions: NoActions(), initialSession: id)
        app.handle(.character("S"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let screen = app.renderOnce(width: width, height: height)
        #expect(screen.contains("LABEL") && screen.contains("▼COUNT") && screen.contains("P99"), "\(screen)")
        #expect(screen.contains("c t p z sort by count/total/p99/patches") || width < 80, "\(screen)")
        #expect(screen.contains("LARGEST") == (width >= 80), "narrow screens leave out the last columns: \(screen)")
        #expect(screen.contains("boot"), "every label shows: \(screen)")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= width })
    }
}
