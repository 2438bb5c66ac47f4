import Foundation
import RewindTUI
import RewindWire
import Testing
import RewindTestSupport

/// The README's capture of the stats view is what the real renderer draws for the same fixture.
@Suite("README's stats view capture")
struct StatsReadmeTests {
    /// The marker line above the capture's ```text block in README.md.
    static let marker = "<!-- stats view capture: Tests/RewindTUITests/Find/StatsReadmeTests.swift -->"

    /// A 300-event session in memory, its reducer times and states fixed: `boot` first, `load` every 50th (slow,
    /// large patches), `save` every 30th, `tick` the rest.
    static func source() throws -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource()
        let initial: JSONValue = ["n": 0, "blob": ""]
        source.addSession(id: "s-stats", appName: "stats", startedAt: Fixtures.start, status: .ended,
                          initialState: initial)
        var previous = initial
        for index in 1...300 {
            let label = index == 1 ? "boot" : index % 50 == 0 ? "load" : index % 30 == 0 ? "save" : "tick"
            let blob = label == "load" ? String(repeating: "x", count: 20 * index) : ""
            let state: JSONValue = ["n": .int(Int64(index)), "blob": .string(blob)]
            let micros = label == "load" ? Double(1_000 + index) : label == "boot" ? 400
                : label == "save" ? Double(150 + index % 40) : Double(index % 7)
            _ = try source.append(session: "s-stats", time: Fixtures.start + Double(index), label: label,
                                  action: ["n": .int(Int64(index))], patch: JSONPatch.diff(from: previous, to: state),
                                  reducerMicros: micros, stateAfter: state)
            previous = state
        }
        return source
    }

    /// The stats view's box (`S`) over the fixture at 80×24, sorted by count: its lines without trailing spaces.
    static func capture() throws -> [String] {
        let app = TimelineApp(dataSource: try source(), actions: RecordingActions(), initialSession: "s-stats",
                              environment: [:], clock: { 0 })
        _ = app.renderFrame(width: 80, height: 24)
        app.handle(.character("S"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let lines = app.renderOnce(width: 80, height: 24).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let top = try #require(lines.firstIndex { $0.hasPrefix("┌") && $0.contains("Stats of") }, "the box's top")
        let bottom = try #require(lines[top...].firstIndex { $0.hasPrefix("└") }, "the box's bottom")
        return lines[top...bottom].map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    @Test("the README's stats view capture equals the box of its fixture as the timeline renders it")
    func readmeCaptureMatches() throws {
        let block = try ValueFixtures.readmeBlock(after: Self.marker)
        let rendered = try Self.capture()
        #expect(block == rendered, "the README's block should read:\n\(rendered.joined(separator: "\n"))")
    }
}
