import Foundation
import RewindWire

extension SessionMetadata {
    /// The session as one JSON object, the same for every reader that lists sessions (`rewind sessions --json`,
    /// `rewind mcp`'s `list_sessions` and session summaries): `id`, `app`, `instance`, `live`, `startedAt`,
    /// `endedAt`, `lastEventAt` (ISO 8601, UTC), `events`, `actionsLost` (when given), `end`, `bytes`, `stateType`,
    /// `importedFrom` — members without a value left out. docs/SESSION-FORMAT.md, "Listing sessions".
    package func listingJSON(actionsLost: Int64?) -> JSONObject {
        let iso = ISO8601DateFormatter()
        var row = JSONObject()
        row["id"] = .string(id.rawValue)
        row["app"] = .string(appName)
        if let instance { row["instance"] = .string(instance) }
        row["live"] = .bool(endState == .live)
        row["startedAt"] = .string(iso.string(from: startedAt))
        if let endedAt { row["endedAt"] = .string(iso.string(from: endedAt)) }
        if let lastEventAt { row["lastEventAt"] = .string(iso.string(from: lastEventAt)) }
        row["events"] = .int(eventCount)
        if let actionsLost { row["actionsLost"] = .int(actionsLost) }
        row["end"] = .string(endState.rawValue)
        row["bytes"] = .int(fileBytes)
        if let stateType { row["stateType"] = .string(stateType) }
        if let importedFrom { row["importedFrom"] = .string(importedFrom) }
        return row
    }
}
