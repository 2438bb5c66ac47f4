import Foundation
import RewindSessionFile
import RewindTestSupport
import RewindTUI
import RewindWire
import Testing

/// Issue 33's charts: `SessionReader.sessionChart` (an aggregate query per slice, a keyframe seek per slice) answers
/// what adding up every row says — rows, actions, times, reducer times, patch bytes and the state's size at each
/// slice's end — on generated sessions, for several slice counts and ranges; and the timeline's data source agrees
/// with its row-by-row default.
@Suite("The charts' reader: what the events of each slice of a session cost")
struct SessionChartReaderTests {
    /// A session of `count` rows from `seed`: actions with random reducer times and patches of random sizes, notes
    /// without either, errors, snapshots (a keyframe each), at irregular times; a keyframe every 7 events.
    static func writeSession(seed: UInt64, count: Int, into store: SessionStore) -> SessionID? {
        var random = SplitMix(seed: seed)
        guard let recording = try? store.createSession(appName: "charted", protocolVersion: 2,
                                                       initialState: ["n": 0, "text": ""],
                                                       startedAt: Date(timeIntervalSince1970: 1_800_000_000)) else {
            return nil
        }
        var time = 1_800_000_000.0
        var text = ""
        for index in 1...count {
            time += Double(random.next() % 1_000) / 1_000
            switch random.next() % 10 {
            case 0:
                recording.append(NewEvent(time: time, kind: .note, label: "note", detail: "note \(index)"),
                                 stateAfter: ["n": .int(Int64(index - 1)), "text": .string(text)])
            case 1:
                recording.append(NewEvent(time: time, kind: .error, label: "oops", detail: "an error"),
                                 stateAfter: ["n": .int(Int64(index - 1)), "text": .string(text)])
            case 2:
                text = String(repeating: "s", count: Int(random.next() % 300))
                recording.append(NewEvent(appSeq: Int64(index), time: time, kind: .snapshot, label: "snapshot"),
                                 stateAfter: ["n": .int(Int64(index)), "text": .string(text)], forceKeyframe: true)
            default:
                text = String(repeating: "x", count: Int(random.next() % 200))
                let patch = JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(index))),
                                       .replace(path: JSONPointer(tokens: ["text"]), value: .string(text))])
                recording.append(NewEvent(appSeq: Int64(index), time: time, label: "act", action: ["n": .int(Int64(index))],
                                          patch: patch,
                                          reducerMicros: random.next() % 4 == 0 ? nil : Double(random.next() % 5_000) / 10),
                                 stateAfter: ["n": .int(Int64(index)), "text": .string(text)])
            }
        }
        recording.finish(endState: .clean)
        return recording.id
    }

    /// The chart worked out row by row: every row of `range` read and added to its slice; the state's size from the
    /// file's keyframes (the bytes of each, read with SQL), the last at or before each slice's end.
    static func expectedChart(_ reader: SessionReader, file: URL, buckets: Int, range: ClosedRange<Int64>) throws
        -> SessionChart {
        var chart = SessionChart(range: range, buckets: buckets)
        let database = try SQLiteDatabase(path: file.path, mode: .readOnly)
        defer { database.close() }
        var patchBytes: [Int64: Int64] = [:]
        let patches = try database.prepare("SELECT idx, length(CAST(patch AS BLOB)) FROM events WHERE patch IS NOT NULL")
        while try patches.step() { patchBytes[patches.int64(at: 0)] = patches.int64(at: 1) }
        patches.reset()
        var keyframes: [(index: Int64, bytes: Int64)] = []
        let states = try database.prepare(
            "SELECT idx, length(CAST(state AS BLOB)) FROM keyframes WHERE branch = 0 ORDER BY idx")
        while try states.step() { keyframes.append((states.int64(at: 0), states.int64(at: 1))) }
        states.reset()
        for event in try reader.eventsOnAllBranches(max(1, range.lowerBound)...max(1, range.upperBound))
        where range.contains(event.index) {
            var row = SessionChart.Bucket()
            row.events = 1
            row.actions = event.kind == .action ? 1 : 0
            row.firstTime = event.time
            row.lastTime = event.time
            if let micros = event.reducerMicros {
                row.reducerMicrosTotal = micros
                row.reducerMicrosMax = micros
                row.timedEvents = 1
            }
            if let bytes = patchBytes[event.index] {
                #expect(event.patch != nil)
                row.patchBytesTotal = bytes
                row.patchBytesMax = bytes
                row.patchedEvents = 1
            }
            chart.buckets[chart.bucket(of: event.index)].merge(row)
        }
        for bucket in 0..<buckets {
            let first = chart.firstIndex(ofBucket: bucket)
            let last = min(chart.firstIndex(ofBucket: bucket + 1) - 1, range.upperBound)
            guard first <= last, let keyframe = keyframes.last(where: { $0.index <= last }) else { continue }
            chart.buckets[bucket].stateBytes = keyframe.bytes
            chart.buckets[bucket].stateKeyframe = keyframe.index
        }
        return chart
    }

    /// `chart` with its reducer totals rounded to a thousandth (SQLite and Swift add doubles in another order).
    static func rounded(_ chart: SessionChart) -> SessionChart {
        var chart = chart
        for bucket in chart.buckets.indices {
            chart.buckets[bucket].reducerMicrosTotal = (chart.buckets[bucket].reducerMicrosTotal * 1_000).rounded() / 1_000
        }
        return chart
    }

    @Test("generated sessions: the aggregated chart equals the row-by-row one, for 1, 7, 40 and 300 slices",
          arguments: 0..<3 as Range<UInt64>)
    func chartsAgree(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-chart-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory, options: RecordingOptions(keyframeInterval: 7))
        let id = try #require(Self.writeSession(seed: seed, count: 250, into: store))
        let reader = try store.openSession(id)
        let count = reader.eventCount
        #expect(count == 250)
        for buckets in [1, 7, 40, 300] {
            for range in [0...count, 1...count, count / 3...count / 2] {
                let chart = try reader.sessionChart(buckets: buckets, in: range)
                let expected = try Self.expectedChart(reader, file: store.fileURL(for: id), buckets: buckets, range: range)
                #expect(Self.rounded(chart) == Self.rounded(expected), "seed \(seed), \(buckets) slices over \(range)")
            }
        }
        let whole = try reader.sessionChart(buckets: 10, in: 0...count)
        #expect(whole.buckets.reduce(0) { $0 + $1.events } == count)
        #expect(Set(whole.buckets.compactMap(\.stateKeyframe)).count > 5, "the state's size comes from many keyframes")
        #expect(whole.buckets.contains { $0.patchBytesMax > 100 } && whole.buckets.contains { $0.timedEvents > 0 })
    }

    @Test("a generated run with dropped ranges, jumps and branches: every row is counted once")
    func generatedRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-chart-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let run = try GeneratedRecording(seed: 2, steps: 60, into: store)
        let reader = try store.openSession(run.id)
        let count = reader.eventCount
        for buckets in [3, 17] {
            let chart = try reader.sessionChart(buckets: buckets, in: 0...count)
            let expected = try Self.expectedChart(reader, file: store.fileURL(for: run.id), buckets: buckets,
                                                  range: 0...count)
            #expect(Self.rounded(chart) == Self.rounded(expected), "\(buckets) slices: \(run.script)")
        }
    }

    @Test("slices computed a few at a time add up to the whole chart")
    func slicesAddUp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-chart-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory, options: RecordingOptions(keyframeInterval: 5))
        let id = try #require(Self.writeSession(seed: 7, count: 200, into: store))
        let reader = try store.openSession(id)
        let whole = try reader.sessionChart(buckets: 30, in: 0...200)
        var pieced = SessionChart(range: 0...200, buckets: 30)
        for slices in [0..<1, 1..<4, 4..<17, 17..<30] {
            let part = try reader.sessionChart(buckets: 30, in: 0...200, slices: slices)
            for bucket in 0..<30 where !slices.contains(bucket) { #expect(part.buckets[bucket] == SessionChart.Bucket()) }
            for bucket in slices { pieced.buckets[bucket] = part.buckets[bucket] }
        }
        #expect(pieced == whole)
    }

    @Test("stop: a chart asked to stop returns at once with the slices not computed left empty")
    func stops() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-chart-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let id = try #require(Self.writeSession(seed: 9, count: 100, into: store))
        let reader = try store.openSession(id)
        var asked = 0
        let chart = try reader.sessionChart(buckets: 10, in: 0...100) {
            asked += 1
            return asked > 3
        }
        #expect(chart.buckets[..<3].allSatisfy { $0.events > 0 })
        #expect(chart.buckets[3...].allSatisfy { $0 == SessionChart.Bucket() })
    }

    @Test("the timeline's data source answers from the file as its default answers row by row")
    func timelineSourceAgreesWithDefault() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-chart-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory, options: RecordingOptions(keyframeInterval: 1))
        let id = try #require(Self.writeSession(seed: 4, count: 120, into: store))
        let source = SessionTimelineSource(store: store, daemon: nil, only: id)
        let progress = TimelineSearchProgress()
        for slices in [0..<13, 0..<1, 4..<9, 12..<13, 13..<20] {
            let fromFile = try source.sessionChart(session: id.rawValue, count: 120, buckets: 13, slices: slices,
                                                   progress: progress)
            let rowByRow = try RowByRow(source).sessionChart(session: id.rawValue, count: 120, buckets: 13,
                                                                  slices: slices, progress: progress)
            // A keyframe after every event: the file's state sizes are the states after each slice's last event.
            #expect(Self.rounded(fromFile) == Self.rounded(rowByRow), "slices \(slices)")
            #expect(fromFile.buckets.indices.filter { fromFile.buckets[$0].events > 0 } == Array(slices.clamped(to: 0..<13)))
        }
    }
}
