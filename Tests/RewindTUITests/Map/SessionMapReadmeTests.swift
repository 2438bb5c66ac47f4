import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire
import Testing
import RewindTestSupport

/// The README's capture of the session map is what the real renderer draws for the same fixture.
@Suite("README's session map capture")
struct SessionMapReadmeTests {
    /// The marker line above the capture's ```text block in README.md.
    static let marker = "<!-- session map capture: Tests/RewindTUITests/Map/SessionMapReadmeTests.swift -->"

    /// 300 events of `tick`, `tock` every 40th, an error at 70 (a reducer that threw: the state stays known), a
    /// dropped range from 150 (its states unknown until the snapshot at 180) and a jump at 240; fixed times and states.
    static func source() throws -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource()
        source.addSession(id: "s-map", appName: "map", startedAt: Fixtures.start, status: .ended,
                          initialState: ["n": 0])
        for index in 1...300 {
            let time = Fixtures.start + Double(index)
            let value: JSONValue = ["n": .int(Int64(index))]
            switch index {
            case 70: _ = try source.append(session: "s-map", time: time, kind: .error, label: "reducer_threw",
                                           detail: "the reducer threw", stateAfter: ["n": 69])
            case 150: _ = try source.append(session: "s-map", time: time, kind: .dropped, label: "dropped",
                                            detail: "the app's outbox was full")
            case 180: _ = try source.append(session: "s-map", time: time, kind: .snapshot, label: "snapshot",
                                            stateAfter: value)
            case 240: _ = try source.append(session: "s-map", time: time, kind: .jump, label: "jump", stateAfter: value)
            default:
                _ = try source.append(
                    session: "s-map", time: time, label: index % 40 == 0 ? "tock" : "tick",
                    action: ["n": .int(Int64(index))],
                    patch: index > 150 && index < 180 ? nil
                        : JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(index)))]),
                    reducerMicros: Double(10 + index % 5), stateAfter: value,
                    meaning: (151..<180).contains(index) ? .unknown(.dropped, cause: 150) : RowMeaning())
            }
        }
        return source
    }

    /// The timeline pane of `source()` at 80×30 after the label search `/tock` (its matching rows listed, the
    /// cursor on the first): its lines, the map strip at their right, without trailing spaces.
    static func capture() throws -> [String] {
        let (width, height) = (80, 30)
        let app = TimelineApp(dataSource: try source(), actions: RecordingActions(), initialSession: "s-map",
                              environment: [:], clock: { 0 })
        _ = app.renderFrame(width: width, height: height)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        for key in [Key.character("/")] + "tock".map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        _ = app.renderFrame(width: width, height: height)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let buffer = app.renderFrame(width: width, height: height)
        let pane = app.model.layout.timeline
        return (pane.row..<pane.bottom).map { row in
            var line = String(buffer.lines[row].padding(toLength: width, withPad: " ", startingAt: 0)
                .dropFirst(pane.column).prefix(pane.width))
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    @Test("the README's session map capture equals the timeline and map of its fixture as rendered")
    func readmeCaptureMatches() throws {
        let block = try ValueFixtures.readmeBlock(after: Self.marker)
        let rendered = try Self.capture()
        #expect(block == rendered, "the README's block should read:\n\(rendered.joined(separator: "\n"))")
    }
}
