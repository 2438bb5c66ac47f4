import Foundation
import RewindWire

/// Writes a session out as JSON Lines or in the Redux DevTools import format (docs/SESSION-FORMAT.md).
///
/// Streams: memory stays bounded by one chunk of events and the current state of each branch, whatever the
/// session's length. A session being recorded is exported up to the events committed when the reader was last
/// refreshed. `progress` is called on the exporting thread every few thousand events and at the end.
/// Threading: a value; each call runs on the caller's thread (the reader serializes its own access).
package struct SessionExporter: Sendable {
    /// The session to export.
    package let reader: SessionReader
    /// The largest state the export rebuilds from the stored patches, in bytes of compact JSON (about): a session
    /// recorded before the daemon bounded states may hold a patch that copies the state into itself; its export
    /// fails naming the event instead of writing without end. Default 1 GiB.
    package let maxStateBytes: Int

    /// An exporter of the session `reader` reads.
    package init(reader: SessionReader, maxStateBytes: Int = 1 << 30) {
        self.reader = reader
        self.maxStateBytes = maxStateBytes
    }

    /// Writes the export to `url`. The file appears complete or not at all (written as `<file>.partial`, then
    /// renamed). Throws `unwritable`/`diskFull` naming the file, or a reading error.
    package func export(
        format: SessionExportFormat, to url: URL, progress: ((TransferProgress) -> Void)? = nil
    ) throws(SessionStoreError) {
        let output = try ExportOutput(url: url)
        try write(format: format, to: output, progress: progress)
    }

    /// Writes the export to an open file descriptor (for example 1, standard output), which stays open.
    /// `name` is how errors call it.
    package func export(
        format: SessionExportFormat, toFileDescriptor descriptor: Int32, name: String = "standard output",
        progress: ((TransferProgress) -> Void)? = nil
    ) throws(SessionStoreError) {
        try write(format: format, to: ExportOutput(descriptor: descriptor, name: name), progress: progress)
    }

    private func write(
        format: SessionExportFormat, to output: ExportOutput, progress: ((TransferProgress) -> Void)?
    ) throws(SessionStoreError) {
        switch format {
        case .jsonl: try writeLines(to: output, progress: progress)
        case .reduxDevTools: try writeRedux(to: output, progress: progress)
        }
        try output.finish()
    }

    // MARK: JSON Lines

    private func writeLines(to output: ExportOutput, progress: ((TransferProgress) -> Void)?) throws(SessionStoreError) {
        let metadata = reader.metadata
        let total = metadata.eventCount
        try output.write(SessionLinesFormat.header(metadata, initialState: try reader.initialState()).serializedBytes())
        try output.write("\n")
        var done: Int64 = 0
        progress?(TransferProgress(completed: 0, total: total, unit: .events))
        try SessionTimelineWalker(reader: reader, allBranches: true, maxStateBytes: maxStateBytes).walk { (event, state, replaces, unknown) throws(SessionStoreError) in
            // Not a ternary: `JSONValue` is `ExpressibleByNilLiteral`, so `c ? state : nil` would be `.null`.
            var replacement: JSONValue?
            if replaces { replacement = state }
            var line = SessionLinesFormat.line(for: event, state: replacement)
            if unknown != nil, case .object(var members) = line {
                // The recording does not hold this state (a `dropped` range): say so rather than let a reader
                // take the previous state for it.
                members["stateUnknown"] = true
                line = .object(members)
            }
            try output.write(line.serializedBytes())
            try output.write("\n")
            done += 1
            if done % 4096 == 0 { progress?(TransferProgress(completed: done, total: total, unit: .events)) }
        }
        progress?(TransferProgress(completed: total, total: total, unit: .events))
    }

    // MARK: Redux DevTools

    /// Two passes over the original timeline: the actions, then the state after each.
    private func writeRedux(to output: ExportOutput, progress: ((TransferProgress) -> Void)?) throws(SessionStoreError) {
        let metadata = reader.metadata
        let total = metadata.eventCount
        let initialState = try reader.initialState()
        progress?(TransferProgress(completed: 0, total: total, unit: .events))

        try output.write("{\"actionsById\":{\"0\":")
        try output.write(ReduxDevToolsFormat.initAction(at: metadata.startedAt.timeIntervalSince1970).serializedBytes())
        var ids: Int64 = 0
        var after: Int64 = 0
        let unknown = try reader.unknownStates().filter { $0.branch == 0 }.sorted { $0.first < $1.first }
        let skippedEvents = try reader.skippedEventIndices()
        // Redux DevTools runs no skipped action through the reducer: the actions skipped in Rewind, and Rewind's own
        // rows (a `dropped` range, a snapshot, a reconnect…), which are not the app's actions.
        var skippedIDs: [Int64] = []
        var stretch = 0
        while after < total {
            // A page of the rows that exist: a gap in the numbering costs nothing.
            let events = try reader.events(after: after, through: total, limit: 2048, allBranches: false)
            guard let last = events.last else { break }
            for event in events {
                ids += 1
                try output.write(",\"\(ids)\":")
                if event.kind != .action || skippedEvents.contains(event.index) { skippedIDs.append(ids) }
                var lifted = ReduxDevToolsFormat.liftedAction(for: event)
                while stretch < unknown.count, let last = unknown[stretch].last, last < event.index { stretch += 1 }
                if stretch < unknown.count, unknown[stretch].contains(event.index, branch: 0),
                   case .object(var members) = lifted, case .object(var rewind)? = members["rewind"] {
                    // Its `computedStates` entry is the last state recorded before a `dropped` range.
                    rewind["stateUnknown"] = true
                    members["rewind"] = .object(rewind)
                    lifted = .object(members)
                }
                try output.write(lifted.serializedBytes())
            }
            // Half of the work is listing the actions, half computing the states.
            progress?(TransferProgress(completed: last.index / 2, total: total, unit: .events))
            after = last.index
        }

        try output.write("},\"computedStates\":[{\"state\":")
        try output.write(initialState.serializedBytes())
        if let opening = unknown.first, opening.first == 0 {
            try output.write(ReduxDevToolsFormat.unknownStateError(opening, initial: true))
        }
        try output.write("}")
        var done: Int64 = 0
        try SessionTimelineWalker(reader: reader, allBranches: false, maxStateBytes: maxStateBytes).walk { (event, state, _, stretch) throws(SessionStoreError) in
            try output.write(",{\"state\":")
            try output.write(state.serializedBytes())
            // A state Rewind never received: Redux DevTools shows the entry's error beside the last state received.
            if let stretch {
                try output.write(ReduxDevToolsFormat.unknownStateError(stretch, initial: false))
            } else if let error = event.meaning.reducerError {
                try output.write(ReduxDevToolsFormat.entryError(error))
            }
            try output.write("}")
            done += 1
            if done % 4096 == 0 {
                progress?(TransferProgress(completed: total / 2 + event.index / 2, total: total, unit: .events))
            }
        }
        let rewind: JSONValue = .object(JSONObject([
            ("format", .string(SessionLinesFormat.formatName)),
            ("version", .int(Int64(SessionLinesFormat.version))),
            ("session", SessionLinesFormat.sessionObject(metadata)),
            ("rowsStateMeaning", true),
        ]))
        try output.write("],\"committedState\":")
        try output.write(initialState.serializedBytes())
        try output.write(",\"currentStateIndex\":\(ids),\"nextActionId\":\(ids + 1),\"skippedActionIds\":[")
        try output.write(skippedIDs.map(String.init).joined(separator: ","))
        try output.write("],")
        try output.write("\"stagedActionIds\":[")
        var first = true
        for id in 0...ids {
            try output.write(first ? "\(id)" : ",\(id)")
            first = false
        }
        try output.write("],\"isLocked\":false,\"isPaused\":false,\"rewind\":")
        try output.write(rewind.serializedBytes())
        try output.write("}\n")
        progress?(TransferProgress(completed: total, total: total, unit: .events))
    }
}
