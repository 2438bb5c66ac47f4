import Foundation
import RewindSessionFile
import RewindTestSupport
import RewindTUI
import RewindWire
import Testing

/// Issue 33: the session map's reader methods (`SessionReader.sessionMap`, `labelBuckets`) answer, from the file's
/// indexes and one narrow scan, what reading every row says — on generated runs full of dropped ranges, errors, lost
/// actions and jumps, for several bucket counts, and the timeline's default (row by row) agrees.
@Suite("The session map's reader: what occurs in each slice of a session")
struct SessionMapReaderTests {
    /// The map worked out row by row from `reader`'s events.
    private func expectedMap(_ reader: SessionReader, buckets: Int, range: ClosedRange<Int64>) throws -> SessionMap {
        var map = SessionMap(range: range, buckets: buckets)
        for event in try reader.eventsOnAllBranches(max(1, range.lowerBound)...max(1, range.upperBound))
        where range.contains(event.index) {
            var marks = SessionMap.Marks.of(event.kind)
            if event.branch != 0 { marks.insert(.branch) }
            if event.meaning.unknownState != nil { marks.insert(.unknown) }
            map.mark(marks, from: event.index, through: event.index)
        }
        return map
    }

    @Test("generated runs: the indexed map equals the row-by-row one, for 1, 7, 24 and 200 buckets",
          arguments: 0..<4 as Range<UInt64>)
    func mapsAgree(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-map-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let run = try GeneratedRecording(seed: seed, steps: 60, into: store)
        let reader = try store.openSession(run.id)
        let count = reader.eventCount
        var sawMarks = SessionMap.Marks()
        for buckets in [1, 7, 24, 200] {
            for range in [0...count, 1...count, max(1, count / 3)...max(1, count / 2)] {
                let map = try reader.sessionMap(buckets: buckets, in: range)
                let expected = try expectedMap(reader, buckets: buckets, range: range)
                #expect(map == expected, "seed \(seed), \(buckets) buckets over \(range): \(run.script)")
                sawMarks.formUnion(map.buckets.reduce(into: SessionMap.Marks()) { $0.formUnion($1) })
            }
        }
        #expect(!sawMarks.isDisjoint(with: [.dropped, .error, .unknown, .jump]), "the run has something to map")
    }

    /// `run`'s file copied into a directory of its own without the index of the rarer kinds (as files written before
    /// it existed are), opened.
    private func withoutNotableIndex(_ run: GeneratedRecording, of store: SessionStore, in directory: URL) throws
        -> SessionReader {
        let copies = try SessionStore(directory: directory.appendingPathComponent("without-index"))
        try FileManager.default.copyItem(at: store.fileURL(for: run.id), to: copies.fileURL(for: run.id))
        let database = try SQLiteDatabase(path: copies.fileURL(for: run.id).path, mode: .readWrite)
        try database.execute("DROP INDEX \(SessionSchema.notableIndexName)")
        database.close()
        return try copies.openSession(run.id)
    }

    @Test("a file without the index of the rarer kinds (written before it existed) maps the same, by scanning",
          arguments: 0..<3 as Range<UInt64>)
    func mapsAgreeWithoutNotableIndex(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-map-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let run = try GeneratedRecording(seed: seed, steps: 60, into: store)
        let indexed = try store.openSession(run.id)
        #expect(try indexed.file.hasIndex(named: SessionSchema.notableIndexName), "this build writes the index")
        let scanned = try withoutNotableIndex(run, of: store, in: directory)
        #expect(try !scanned.file.hasIndex(named: SessionSchema.notableIndexName))
        let count = indexed.eventCount
        for buckets in [1, 24, 200] {
            for range in [0...count, max(1, count / 3)...max(1, count / 2)] {
                let expected = try expectedMap(indexed, buckets: buckets, range: range)
                #expect(try indexed.sessionMap(buckets: buckets, in: range) == expected, "seed \(seed), \(range)")
                #expect(try scanned.sessionMap(buckets: buckets, in: range) == expected, "seed \(seed), \(range)")
            }
        }
    }

    @Test("the main line's events of given kinds: through the index of the rarer kinds, by scanning, and row by row",
          arguments: 0..<3 as Range<UInt64>)
    func mainLineKindsAgree(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-map-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let run = try GeneratedRecording(seed: seed, steps: 60, into: store)
        let indexed = try store.openSession(run.id)
        let scanned = try withoutNotableIndex(run, of: store, in: directory)
        let count = indexed.eventCount
        let rows = try indexed.eventsOnAllBranches(1...count)
        var found = 0
        for kinds: Set<EventKind> in [[.skip, .reconnect, .dropped], [.error], [.jump, .replay], [.action, .dropped], []] {
            for range in [1...count, max(1, count / 3)...max(1, count / 2)] {
                let expected = rows.filter { $0.branch == 0 && kinds.contains($0.kind) && range.contains($0.index) }
                    .map(\.index)
                found += expected.count
                #expect(try indexed.mainLineIndices(ofKinds: kinds, in: range) == expected, "\(kinds) in \(range)")
                #expect(try scanned.mainLineIndices(ofKinds: kinds, in: range) == expected, "\(kinds) in \(range)")
            }
        }
        #expect(found > 0, "the run has rows of those kinds: \(run.script)")
    }

    @Test("a session's label buckets: seeks through the label index equal matching every row's label")
    func labelBucketsAgree() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-map-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let run = try GeneratedRecording(seed: 3, steps: 60, into: store)
        let reader = try store.openSession(run.id)
        let count = reader.eventCount
        let rows = try reader.eventsOnAllBranches(1...count)
        let labels = Set(rows.map { $0.label ?? $0.kind.rawValue })
        #expect(labels.count > 2)
        for chosen in labels.map({ Set([$0]) }) + [labels, Set(["no such label"])] {
            for buckets in [1, 5, 33, 500] {
                let range: ClosedRange<Int64> = 0...count
                var expected = Array(repeating: false, count: buckets)
                for row in rows where chosen.contains(row.label ?? row.kind.rawValue) {
                    expected[SessionMap.bucket(of: row.index, in: range, buckets: buckets)] = true
                }
                #expect(try reader.labelBuckets(chosen, buckets: buckets, in: range) == expected,
                        "\(chosen) in \(buckets) buckets")
            }
        }
    }

    @Test("the timeline's data source answers from the file as its default answers row by row")
    func timelineSourceAgreesWithDefault() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-map-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let run = try GeneratedRecording(seed: 1, steps: 60, into: store)
        let source = SessionTimelineSource(store: store, daemon: nil, only: run.id)
        let count = Int(run.eventCount)
        let progress = TimelineSearchProgress()
        let fromFile = try source.sessionMap(session: run.id.rawValue, count: count, buckets: 17, progress: progress)
        let rowByRow = try RowByRow(source).sessionMap(session: run.id.rawValue, count: count, buckets: 17,
                                                         progress: progress)
        #expect(fromFile == rowByRow)
        let filter = try TimelineLabelFilter(pattern: "^(add|lost|dropped)$")
        #expect(try source.matchBuckets(session: run.id.rawValue, filter: filter, count: count, buckets: 17,
                                        progress: progress)
                == (try RowByRow(source).matchBuckets(session: run.id.rawValue, filter: filter, count: count,
                                                       buckets: 17, progress: progress)))
    }

    @Test("buckets: every index falls in one, in order, and firstIndex(ofBucket:) is each bucket's first index")
    func bucketArithmetic() {
        for (range, buckets) in [(0...Int64(9), 3), (0...Int64(1_000_000), 21), (5...Int64(5), 4), (1...Int64(40), 40),
                                 (0...SessionSchema.maxEventIndex, 60)] {
            var previous = -1
            let step = max(1, (range.upperBound - range.lowerBound) / 5_000)
            for index in stride(from: range.lowerBound, through: range.upperBound, by: Int(step)) {
                let bucket = SessionMap.bucket(of: index, in: range, buckets: buckets)
                #expect(bucket >= previous && bucket < buckets)
                previous = bucket
            }
            for bucket in 1..<buckets {
                let first = SessionMap.firstIndex(ofBucket: bucket, in: range, buckets: buckets)
                guard first <= range.upperBound else { continue }
                #expect(SessionMap.bucket(of: first, in: range, buckets: buckets) >= bucket)
                #expect(SessionMap.bucket(of: first - 1, in: range, buckets: buckets) < bucket)
            }
        }
    }
}

/// A data source that only passes the rows, details, states and the listing on, so that the map and the chart come
/// from the protocol's defaults (row by row). Shared by SessionMapReaderTests and SessionChartReaderTests.
final class RowByRow: TimelineDataSource, @unchecked Sendable {  // immutable; the wrapped source is Sendable
    let source: SessionTimelineSource

    init(_ source: SessionTimelineSource) {
        self.source = source
    }

    var changeCounter: UInt64 { 0 }
    func header() -> TimelineHeader { source.header() }
    func sessions() -> [TimelineSession] { source.sessions() }
    func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
        try source.events(session: session, range: range)
    }
    func event(session: String, index: Int) throws -> TimelineEvent {
        try source.event(session: session, index: index)
    }
    func state(session: String, index: Int) throws -> JSONValue { try source.state(session: session, index: index) }
}
