import Foundation
import RewindTestSupport
import Testing
import RewindTUI

@Suite("pins.json: where it is, round trip, per app, a corrupt file")
struct PinFileTests {
    @Test("the file is $XDG_CONFIG_HOME/rewind/pins.json, else ~/.config/rewind/pins.json")
    func location() {
        #expect(PinFile(environment: ["XDG_CONFIG_HOME": "/tmp/cfg", "HOME": "/home/u"]).url.path
                == "/tmp/cfg/rewind/pins.json")
        #expect(PinFile(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"]).url.path
                == "/home/u/.config/rewind/pins.json", "a relative XDG_CONFIG_HOME is ignored, as the spec says")
        #expect(PinFile(environment: ["HOME": "/home/u"]).url.path == "/home/u/.config/rewind/pins.json")
    }

    @Test("pins saved are read back, per app, and the directory is created; no temporary file stays behind")
    func roundTrip() throws {
        let directory = ValueFixtures.temporaryConfigDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = PinFile(environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(file.load() == .board(PinBoard()), "no file yet: no pins")
        var board = PinBoard()
        board.toggle("/count", for: "counter")
        board.toggle("/todos/0/title", for: "todo")
        board.toggle("/filter", for: "todo")
        try file.save(board)
        #expect(file.load() == .board(board))
        #expect(board.pointers(for: "todo") == ["/todos/0/title", "/filter"], "in the order pinned")
        #expect(board.pointers(for: "login").isEmpty)
        let saved = try String(contentsOf: file.url, encoding: .utf8)
        #expect(saved.contains("\"counter\" : [\n      \"/count\""), "\(saved)")
        #expect(saved.contains("\"version\" : 1"), "\(saved)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path)
        #expect(leftovers == ["pins.json"])
        // Unpinning the last pin of an app removes the app.
        board.toggle("/count", for: "counter")
        try file.save(board)
        #expect(!(try String(contentsOf: file.url, encoding: .utf8)).contains("counter"))
    }

    @Test("a corrupt file is reported once in the status line and never written over")
    func corruptFile() throws {
        let directory = ValueFixtures.temporaryConfigDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = PinFile(environment: ["XDG_CONFIG_HOME": directory.path])
        try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        let corrupt = "{\"version\": 1, \"apps\": {\"counter\": \"/count\"}"
        try corrupt.write(to: file.url, atomically: true, encoding: .utf8)
        guard case .corrupt(let problem) = file.load() else {
            Issue.record("a corrupt file loads")
            return
        }
        #expect(problem.contains(file.url.path), "\(problem)")

        let app = TimelineApp(dataSource: ValueFixtures.counterSource(), actions: RecordingActions(),
                              initialSession: "s-count", environment: [:], clock: { 0 }, pinFile: file)
        let first = app.renderOnce(width: 120, height: 40)
        #expect(first.contains("pins not loaded:"), "\(first)")
        #expect(app.model.status?.isError == true)
        app.handle(.down)
        #expect(!app.renderOnce(width: 120, height: 40).contains("pins not loaded:"), "said once")

        // w still pins, for this run only, and says why the file is not written.
        try HistoryPlotTests.onNode("/count", in: app, width: 120, height: 40)
        app.handle(.character("w"))
        #expect(app.model.pinnedPointers == ["/count"])
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let said = app.renderOnce(width: 120, height: 40)
        #expect(said.contains("for this run only"), "\(said)")
        #expect(try String(contentsOf: file.url, encoding: .utf8) == corrupt, "the user's file is left as it was")
    }
}
