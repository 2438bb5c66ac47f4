import Foundation
import MCP
import RewindSessionFile
import RewindWire

/// A session's summary as an MCP resource (`rewind://session/ID`): its listing row (app, times, events, lost, end
/// state) and its statistics, so that an agent can take a session in at once.
///
/// Threading: stateless; its functions block while they read and may run on any thread.
enum SessionSummary {
    /// The prefix of every summary's URI.
    static let scheme = "rewind://session/"
    /// How many sessions `resources/list` shows (the newest).
    static let listed = 50

    /// The newest sessions' summaries, live ones first; none when the directory cannot be read.
    static func resources(in library: SessionLibrary) -> [Resource] {
        guard let store = try? library.store(), let sessions = try? store.listSessions() else { return [] }
        return ReadTools.liveFirst(sessions).prefix(listed).map { session in
            Resource(name: "\(session.appName) \(session.id.rawValue)", uri: scheme + session.id.rawValue,
                     description: "Summary of the \(session.endState.rawValue) session of \(session.appName): "
                        + "\(session.eventCount) events", mimeType: "application/json")
        }
    }

    /// The summary at `uri`, or a protocol error naming what URIs there are.
    static func read(_ uri: String, library: SessionLibrary, tools: ReadTools) throws -> ReadResource.Result {
        guard uri.hasPrefix(scheme) else {
            throw MCPError.invalidParams("no resource \(uri): summaries are \(scheme)SESSION-ID (resources/list)")
        }
        let id = String(uri.dropFirst(scheme.count))
        let reader: SessionReader
        do {
            reader = try library.reader(id)
        } catch {
            throw MCPError.invalidParams("\(error)")
        }
        let store = try library.store()
        var summary = JSONObject()
        summary["session"] = ReadTools.sessionJSON(reader.metadata, store: store,
                                                   live: library.liveSessions().sessions[reader.id.rawValue])
        let arguments = try ToolArguments(tool: "session_statistics",
                                          values: ["session": .string(reader.id.rawValue), "top": 5, "samples": 10],
                                          known: tools.sessionStatistics.argumentNames)
        summary["statistics"] = try tools.sessionStatistics.run(arguments)
        return ReadResource.Result(contents: [.text(JSONValue.object(summary).serialized(), uri: uri,
                                                    mimeType: "application/json")])
    }
}
