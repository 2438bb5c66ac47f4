import Foundation
import RewindTUI
import Testing

/// The README's capture of the chart band is what the real renderer draws for the same fixture.
@Suite("README's chart capture")
struct ChartReadmeTests {
    /// The marker line above the capture's ```text block in README.md.
    static let marker = "<!-- chart capture: Tests/RewindTUITests/Charts/ChartReadmeTests.swift -->"

    /// The chart band of `SessionChartTests.source()` at 80×40, action rate (`C` twice), event 150 selected
    /// (`:150`): its lines without trailing spaces.
    static func capture() throws -> [String] {
        let app = SessionChartTests.app(presses: 2, width: 80, height: 40)
        for key in [Key.character(":")] + "150".map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.model.cursor == 150)
        let band = try #require(SessionChartTests.band(app, width: 80, height: 40))
        return band.lines.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    @Test("the README's chart capture equals the chart of its fixture as the timeline renders it")
    func readmeCaptureMatches() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        // The block is indented by two spaces (inside a list item).
        let start = try #require(text.range(of: Self.marker + "\n  ```text\n"), "README.md has the capture's marker")
        let end = try #require(text.range(of: "\n  ```", range: start.upperBound..<text.endIndex))
        let block = text[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.hasPrefix("  ") ? $0.dropFirst(2) : $0[...]) }
        let rendered = try Self.capture()
        #expect(block == rendered, "the README's block should read:\n\(rendered.joined(separator: "\n"))")
    }
}
