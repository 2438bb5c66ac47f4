import Foundation
import RewindWire

/// A `rewind mcp --data DIR` child spoken to over its standard input and output, after the MCP handshake.
///
/// Threading: one caller at a time (the benchmark's thread).
final class McpChild {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()
    private var nextID = 1

    /// Starts `rewind mcp` on `data` and completes the `initialize` handshake.
    init(rewind: String, data: URL) throws {
        process.executableURL = URL(fileURLWithPath: rewind)
        process.arguments = ["mcp", "--data", data.path]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = try request("initialize", ["protocolVersion": "2025-06-18", "capabilities": [:],
                                       "clientInfo": ["name": "rewind-bench", "version": "1"]])
        send(["jsonrpc": "2.0", "method": "notifications/initialized"])
    }

    /// Calls `tool` and returns the bytes of its answer's text; throws when it answers an error.
    func call(_ tool: String, _ arguments: JSONObject) throws -> Int {
        let result = try request("tools/call", ["name": .string(tool), "arguments": .object(arguments)])
        let text = result["content"]?[0]?["text"]?.stringValue ?? ""
        guard result["isError"] != true else { throw BenchFailure("rewind mcp \(tool) answered an error: \(text)") }
        return text.utf8.count
    }

    /// Ends the child.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func request(_ method: String, _ parameters: JSONObject) throws -> JSONValue {
        let id = nextID
        nextID += 1
        send(["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method), "params": .object(parameters)])
        while true {
            let message = try JSONValue(parsing: try readLine())
            guard message["id"]?.int64Value == Int64(id) else { continue }  // a notification, or a log line
            if let error = message["error"] { throw BenchFailure("rewind mcp \(method): \(error.serialized())") }
            return message["result"] ?? .null
        }
    }

    private func send(_ message: JSONValue) {
        input.fileHandleForWriting.write(Data((message.serialized() + "\n").utf8))
    }

    private func readLine() throws -> String {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<end]
                buffer.removeSubrange(buffer.startIndex...end)
                return String(decoding: line, as: UTF8.self)
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchFailure("rewind mcp closed its output") }
            buffer.append(chunk)
        }
    }
}
