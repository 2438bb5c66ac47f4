import Foundation
import Testing
import RewindWire

/// Keeps docs/PROTOCOL.md honest: every JSON example in it must decode as the message it shows.
@Suite("docs/PROTOCOL.md examples")
struct ProtocolDocumentTests {
    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/PROTOCOL.md")

    /// The top-level JSON values in the ```json blocks, in order.
    static func examples() throws -> [JSONValue] {
        let text = try String(contentsOf: document, encoding: .utf8)
        var values: [JSONValue] = []
        var inBlock = false
        var block = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```json") { inBlock = true; block = ""; continue }
            if inBlock && line.hasPrefix("```") {
                inBlock = false
                for piece in splitValues(block) { values.append(try JSONValue(parsing: piece)) }
                continue
            }
            if inBlock { block += line + "\n" }
        }
        return values
    }

    /// Splits concatenated JSON objects by tracking nesting outside strings.
    static func splitValues(_ text: String) -> [String] {
        var pieces: [String] = [], current = ""
        var depth = 0, inString = false, escaped = false
        for c in text {
            if depth == 0 && c.isWhitespace { continue }
            current.append(c)
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { pieces.append(current); current = "" }
            default: break
            }
        }
        return pieces
    }

    @Test("every example decodes, and re-encodes to an equal message")
    func examplesDecode() throws {
        let examples = try ProtocolDocumentTests.examples()
        #expect(examples.count >= 20)
        var kinds: Set<String> = []
        for example in examples {
            let type = try #require(example["type"]?.stringValue, "\(example)")
            kinds.insert(type)
            switch type {
            case "hello", "action", "batch", "snapshot", "dropped", "result", "goodbye":
                let message = try AppMessage(json: example)
                #expect(try AppMessage(json: message.json) == message)
            case "welcome", "jump", "dispatch", "replay", "resync", "error", "ack":
                let message = try DaemonMessage(json: example)
                #expect(try DaemonMessage(json: message.json) == message)
            case "request":
                let request = try ControlRequest(json: example)
                #expect(try ControlRequest(json: request.json) == request)
            case "response", "event":
                let response = try ControlResponse(json: example)
                #expect(try ControlResponse(json: response.json) == response)
            default:
                Issue.record("unexpected example type \(type)")
            }
        }
        #expect(kinds.isSuperset(of: ["hello", "action", "batch", "snapshot", "dropped", "result", "goodbye", "welcome", "jump",
                                      "dispatch", "replay", "resync", "error", "ack", "request", "response", "event"]))
    }

    @Test("every error code is documented with its close code")
    func errorCodes() throws {
        let text = try String(contentsOf: ProtocolDocumentTests.document, encoding: .utf8)
        for code in WireErrorCode.allCases {
            let close = code.closeCode.map(String.init) ?? "—"
            #expect(text.contains("| `\(code.rawValue)` |"), "\(code.rawValue) is not in the table")
            let row = text.split(separator: "\n").first { $0.hasPrefix("| `\(code.rawValue)` |") }
            #expect(row?.hasSuffix("| \(close) |") == true, "\(code.rawValue) should close with \(close)")
        }
    }
}
