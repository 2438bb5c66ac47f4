import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire

/// The sessions the value plot and pinned-watch tests share: deterministic, in memory.
enum ValueFixtures {
    /// The counts events 1…8 set, in order.
    static let counts = [1, 3, 6, 2, 5, 9, 4, 7]

    /// Session `s-count` of app `counter`, ended, starting from `{"count": 0, "mode": "idle"}`: events 1…8 (`add`)
    /// set `/count` to `counts`; event 4 sets `/mode` to `"busy"`, event 6 back to `"idle"`; event 9 is an app's
    /// `dropped` row, so the state after event 10 (an `add`) is unknown; event 11 is a snapshot with `/count` 20 and
    /// no `/mode`.
    static func counterSource() -> InMemoryTimelineDataSource {
        let start = Fixtures.start
        let source = InMemoryTimelineDataSource(header: TimelineHeader(caption: "fixture"))
        source.addSession(id: "s-count", appName: "counter", startedAt: start, status: .ended,
                          initialState: ["count": 0, "mode": "idle"])
        var mode: JSONValue = "idle"
        for (offset, count) in counts.enumerated() {
            let index = offset + 1
            var operations = [JSONPatchOperation.replace(path: JSONPointer(tokens: ["count"]), value: .int(Int64(count)))]
            if index == 4 || index == 6 {
                mode = index == 4 ? "busy" : "idle"
                operations.append(.replace(path: JSONPointer(tokens: ["mode"]), value: mode))
            }
            _ = try? source.append(session: "s-count", time: start + Double(index), label: "add",
                                   action: ["add": .int(Int64(index))], patch: JSONPatch(operations),
                                   reducerMicros: 12, appSeq: index)
        }
        let dropped = (try? source.append(session: "s-count", time: start + 9, kind: .dropped, label: "dropped",
                                          detail: "1 action's state not sent")) ?? 0
        _ = try? source.append(session: "s-count", time: start + 10, label: "add", action: ["add": 10],
                               reducerMicros: 12, appSeq: 10, meaning: .unknown(.dropped, cause: dropped))
        _ = try? source.append(session: "s-count", time: start + 11, kind: .snapshot, label: "snapshot",
                               stateAfter: ["count": 20])
        return source
    }

    /// A fresh temporary directory to point `XDG_CONFIG_HOME` (or a `PinFile`) at; the caller removes it.
    static func temporaryConfigDirectory() -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-pins-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A `pins.json` in a fresh temporary directory (never the user's config).
    static func temporaryPinFile() -> PinFile {
        PinFile(url: temporaryConfigDirectory().appendingPathComponent("pins.json"))
    }

    /// The lines of README.md's ```text block that follows the line containing `marker`, without the indentation of
    /// its fence (a block inside a list item is indented).
    static func readmeBlock(after marker: String, file: String = #filePath) throws -> [String] {
        let readme = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let anchor = text.range(of: marker),
              let open = text.range(of: "```text\n", range: anchor.upperBound..<text.endIndex) else {
            throw ReadmeBlockMissing(marker: marker)
        }
        let lineStart = text[..<open.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let indent = String(text[lineStart..<open.lowerBound])
        guard let close = text.range(of: "\n" + indent + "```", range: open.upperBound..<text.endIndex) else {
            throw ReadmeBlockMissing(marker: marker)
        }
        return text[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(indent) ? String($0.dropFirst(indent.count)) : String($0) }
    }

    /// README.md has no ```text block after the marker.
    struct ReadmeBlockMissing: Error, CustomStringConvertible {
        let marker: String
        var description: String { "README.md has no ```text block after \"\(marker)\"" }
    }
}
