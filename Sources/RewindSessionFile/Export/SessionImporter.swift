import Foundation
import RewindWire

/// Reads a JSON Lines or Redux DevTools file (the format is detected) into a new session of a store.
///
/// Every event is checked: a line that is not JSON, an unknown kind, a patch that does not apply to the state
/// before it… fails the import with `malformedImport` naming the file and the line, and the half-made session is
/// deleted. Patches are applied to rebuild the states (JSON Lines); for Redux DevTools files the patches are
/// computed from consecutive `computedStates`. `progress` is called on the importing thread.
/// Threading: a value; each call runs on the caller's thread.
package struct SessionImporter: Sendable {
    /// Where imported sessions are created.
    package let store: SessionStore
    /// The longest line of a file (and the longest pretty-printed document), in bytes: beyond it the import fails
    /// without reading further. Default 256 MiB.
    package let maxLineBytes: Int
    /// The largest state an event's patch may build, in bytes of compact JSON (about): a patch going beyond it
    /// fails the import (a JSON Patch `copy` can double a state with a few bytes). Default 256 MiB.
    package let maxStateBytes: Int

    /// An importer into `store`.
    package init(store: SessionStore, maxLineBytes: Int = 256 << 20, maxStateBytes: Int = 256 << 20) {
        self.store = store
        self.maxLineBytes = maxLineBytes
        self.maxStateBytes = maxStateBytes
    }

    /// The format of the file at `url`: JSON Lines when its first line is a Rewind session header, Redux DevTools
    /// when the file is one JSON object with `actionsById` and `computedStates`. Throws `unknownImportFormat`,
    /// `malformedImport` (a file that is not JSON, naming the line) or `unreadable`.
    package static func detectFormat(of url: URL) throws(SessionStoreError) -> SessionExportFormat {
        switch try SessionImporter.open(url, maxLineBytes: ImportLineReader.defaultMaxLineBytes) {
        case .lines: return .jsonl
        case .redux: return .reduxDevTools
        }
    }

    /// Imports the file at `url` into a new session and returns its id.
    package func importSession(
        from url: URL, progress: ((TransferProgress) -> Void)? = nil
    ) throws(SessionStoreError) -> SessionImportResult {
        switch try SessionImporter.open(url, maxLineBytes: maxLineBytes) {
        case .lines(let header, let headerLine, let lines, let replaced):
            return try importLines(header: header, headerLine: headerLine, lines: lines, replaced: replaced, url: url,
                                   progress: progress)
        case .redux(let document, let replaced):
            return try importRedux(document, replaced: replaced, url: url, progress: progress)
        }
    }

    // MARK: Detecting

    private enum OpenedFile {
        /// `replaced`: lone surrogate escapes read as U+FFFD in the header.
        case lines(header: JSONValue, headerLine: Int, ImportLineReader, replaced: Int)
        /// `replaced`: lone surrogate escapes read as U+FFFD in the document.
        case redux(JSONValue, replaced: Int)
    }

    private static func open(_ url: URL, maxLineBytes: Int) throws(SessionStoreError) -> OpenedFile {
        let lines = try ImportLineReader(url: url, maxLineBytes: maxLineBytes)
        var firstLine: ArraySlice<UInt8>?
        while let line = try lines.nextLine() {
            if !isBlank(line) {
                firstLine = line
                break
            }
        }
        guard let firstLine else { throw .unknownImportFormat(path: url.path, reason: "the file is empty") }
        let firstLineNumber = lines.lineNumber
        let neither = "it is JSON, but neither a Rewind session header ({\"format\":\"rewind-session\",…}), "
            + "nor a Redux DevTools lifted state (with \"actionsById\" and \"computedStates\"), nor the Redux "
            + "DevTools extension's export ({\"payload\": …, \"preloadedState\": …})"
        let limits = parseLimits(maxLineBytes: maxLineBytes)
        var firstValue: JSONValue?, firstLineError: JSONParseError?
        var replaced = 0
        do throws(JSONParseError) {
            firstValue = try parse(firstLine, limits, replaced: &replaced)
        } catch {
            firstLineError = error
        }
        if let value = firstValue {
            if SessionLinesFormat.isHeader(value) {
                return .lines(header: value, headerLine: firstLineNumber, lines, replaced: replaced)
            }
            if ReduxDevToolsFormat.isDocument(value) || ReduxDevToolsFormat.isExtensionExport(value) {
                while let line = try lines.nextLine() {
                    if !isBlank(line) {
                        throw .malformedImport(path: url.path, line: lines.lineNumber,
                                               reason: "unexpected content after the Redux DevTools document")
                    }
                }
                return .redux(value, replaced: replaced)
            }
            throw .unknownImportFormat(path: url.path, reason: neither)
        }
        // Not JSON on its own: perhaps a document spread over several lines (pretty-printed). A first line that is
        // the whole file (no line end follows it) is judged alone: no line end is added that the file does not have.
        let rest = try lines.remainder()
        if let firstLineError, isBlankText(rest) {
            throw .malformedImport(path: url.path, line: firstLineNumber,
                                   reason: invalidJSON(firstLineError, length: firstLine.count, what: "the line"))
        }
        let whole = Array(firstLine) + [UInt8(ascii: "\n")] + rest
        let value: JSONValue
        do throws(JSONParseError) {
            replaced = 0
            value = try parse(whole[...], limits, replaced: &replaced)
        } catch {
            let offset = min(max(0, error.offset), whole.count)
            let line = firstLineNumber + whole[..<offset].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw .malformedImport(path: url.path, line: line,
                                   reason: invalidJSON(error, length: whole.count, what: "the document"))
        }
        guard ReduxDevToolsFormat.isDocument(value) || ReduxDevToolsFormat.isExtensionExport(value) else {
            throw .unknownImportFormat(path: url.path, reason: neither)
        }
        return .redux(value, replaced: replaced)
    }

    /// The parser's limits for an import: no size limit beyond the line limit, and at most one JSON value per
    /// 16 bytes of it (a parsed value takes 32 bytes), so that a line of `[],[],…` cannot cost 11 times its size.
    /// Lone surrogate escapes, which JavaScript writes (Redux DevTools), read as U+FFFD: the import says how many
    /// (``loneSurrogatesWarning(_:)``). The wire protocol's parser stays strict.
    package static func parseLimits(maxLineBytes: Int) -> JSONLimits {
        var limits = JSONLimits(maxDepth: SessionFileReader.storedJSONLimits.maxDepth, maxBytes: Int.max,
                                maxValues: max(1 << 16, maxLineBytes / 16))
        limits.replacesLoneSurrogates = true
        return limits
    }

    /// Parses `bytes`, adding to `replaced` the lone surrogate escapes read as U+FFFD.
    package static func parse(
        _ bytes: ArraySlice<UInt8>, _ limits: JSONLimits, replaced: inout Int
    ) throws(JSONParseError) -> JSONValue {
        var count = 0
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                return .success(try JSONValue(parsing: buffer, limits: limits, replacedSurrogates: &count))
            } catch {
                return .failure(error)
            }
        }
        replaced += count
        return try result.get()
    }

    /// The import's warning for `count` lone surrogates read as U+FFFD; nil for none.
    package static func loneSurrogatesWarning(_ count: Int) -> String? {
        guard count > 0 else { return nil }
        return "\(count) lone surrogate\(count == 1 ? "" : "s") (a \\uD800–\\uDFFF escape without its pair, which "
            + "JavaScript strings can hold) \(count == 1 ? "was" : "were") read as U+FFFD (\u{FFFD})"
    }

    /// What is wrong with `what` (`the line`, `the document`), `length` bytes that failed to parse with `error`: an
    /// error at its very end means it ends in the middle of a JSON value, which is said as such (a file cut short),
    /// rather than as the parser's "expected ',' or '}'".
    package static func invalidJSON(_ error: JSONParseError, length: Int, what: String) -> String {
        // The parser places an unterminated string (or escape) at its start: it too met the end of the input.
        guard error.kind == .syntax, error.offset >= length || error.reason.hasPrefix("unterminated") else {
            return "not valid JSON: \(error.reason)" + (what == "the line" ? " (column \(error.offset + 1))" : "")
        }
        return "not valid JSON: \(what) is incomplete, it ends in the middle of a JSON value (was the file cut "
            + "short?)"
    }

    /// True when `bytes` hold only spaces, tabs and line ends.
    private static func isBlankText(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains($0) }
    }

    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    // MARK: JSON Lines

    private func importLines(
        header: JSONValue, headerLine: Int, lines: ImportLineReader, replaced: Int, url: URL,
        progress: ((TransferProgress) -> Void)?
    ) throws(SessionStoreError) -> SessionImportResult {
        var replaced = replaced
        let path = url.path
        let session: SessionLinesFormat.Session
        let initialState: JSONValue
        do throws(ImportProblem) {
            (session, initialState) = try SessionLinesFormat.parseHeader(header)
        } catch {
            throw .malformedImport(path: path, line: headerLine, reason: error.reason)
        }
        let limits = SessionImporter.parseLimits(maxLineBytes: maxLineBytes)
        let staging = try ImportStaging(into: store)
        let recording = try staging.store.createSession(
            appName: session.app, instance: session.instance, protocolVersion: session.protocolVersion,
            stateType: session.stateType, initialState: initialState, startedAt: session.startedAt,
            importedFrom: url.lastPathComponent)
        // Files of version 1 do not say what a row means: the migration reader works it out once they are written.
        let statesMeaning = (header.objectValue?["version"]?.int64Value ?? 1) >= 2
        do throws(SessionStoreError) {
            var states: [Int64: JSONValue] = [0: initialState]
            var sizes: [Int64: Int] = [:]
            var lastIndex: Int64 = 0
            /// The rows numbered otherwise in the file than in the import (a file with gaps), for the causes.
            var renumbered: [Int64: Int64] = [:]
            var count: Int64 = 0
            progress?(TransferProgress(completed: lines.bytesRead, total: lines.size, unit: .bytes))
            while let line = try lines.nextLine() {
                if SessionImporter.isBlank(line) { continue }
                let number = lines.lineNumber
                let value: JSONValue
                do throws(JSONParseError) {
                    value = try SessionImporter.parse(line, limits, replaced: &replaced)
                } catch {
                    throw .malformedImport(path: path, line: number,
                                           reason: SessionImporter.invalidJSON(error, length: line.count, what: "the line"))
                }
                let parsed: SessionLinesFormat.EventLine
                do throws(ImportProblem) {
                    parsed = try SessionLinesFormat.parseEvent(value)
                } catch {
                    throw .malformedImport(path: path, line: number, reason: error.reason)
                }
                if let index = parsed.index {
                    guard index > lastIndex else {
                        throw .malformedImport(path: path, line: number,
                                               reason: "event index \(index) does not come after index \(lastIndex)")
                    }
                    lastIndex = index
                }
                let branch = parsed.event.branch
                let stateAfter: JSONValue
                if let state = parsed.state {
                    stateAfter = state
                    sizes[branch] = nil
                } else if var state = states[branch] {
                    states[branch] = nil  // so that the patch changes the state in place
                    if let patch = parsed.event.patch {
                        var size = sizes[branch] ?? state.compactSize(limit: maxStateBytes)
                        do throws(JSONPatchError) {
                            try patch.apply(to: &state, size: &size, maxSize: maxStateBytes)
                            sizes[branch] = size
                        } catch {
                            throw .malformedImport(path: path, line: number,
                                                   reason: "the patch does not apply to the state before it: \(error)")
                        }
                    }
                    stateAfter = state
                } else {
                    throw .malformedImport(path: path, line: number,
                                           reason: "the event starts branch \(branch) but has no \"state\"")
                }
                states[branch] = stateAfter
                var event = parsed.event
                if let cause = parsed.unknownCause, let mapped = renumbered[cause] {
                    event.meaning.unknownState?.cause = mapped
                }
                let written = recording.appendImported(event, stateAfter: stateAfter, forceKeyframe: parsed.state != nil)
                guard written != 0 else {
                    throw recording.lastError ?? .unwritable(path: recording.fileURL.path, reason: "the recording stopped")
                }
                if let index = parsed.index, index != written { renumbered[index] = written }
                count += 1
                if count % 4096 == 0 {
                    progress?(TransferProgress(completed: lines.bytesRead, total: lines.size, unit: .bytes))
                }
            }
            try finish(recording, in: staging, as: session.endState, endedAt: session.endedAt)
            if !statesMeaning { try SchemaOneMeaning.derive(inFileAt: recording.fileURL.path) }
            try staging.publish(recording.id)
            progress?(TransferProgress(completed: lines.size, total: lines.size, unit: .bytes))
            return SessionImportResult(id: recording.id, format: .jsonl, eventCount: count,
                                       warnings: [SessionImporter.loneSurrogatesWarning(replaced)].compactMap { $0 })
        } catch {
            staging.abandon(recording)
            throw error
        }
    }

    // MARK: Redux DevTools

    /// `meaning` with the events it names (in the numbering of the session an export came from) renumbered as this
    /// import wrote them; a branch it names is left out (an export holds the main line only).
    private static func renumber(_ meaning: RowMeaning, _ renumbered: [Int64: Int64]) -> RowMeaning {
        var meaning = meaning
        if let cause = meaning.unknownState?.cause { meaning.unknownState?.cause = renumbered[cause] ?? cause }
        if let skip = meaning.skip {
            meaning.skip = SkipMark(event: renumbered[skip.event] ?? skip.event, skipped: skip.skipped)
        }
        if let target = meaning.jumpTarget { meaning.jumpTarget = target == 0 ? 0 : renumbered[target] ?? target }
        if let range = meaning.replayed, range.session == nil {
            meaning.replayed = ReplayedRange(from: renumbered[range.from] ?? range.from, to: renumbered[range.to] ?? range.to)
        }
        meaning.recomputes = nil
        meaning.branchFrom = nil
        return meaning
    }

    private func importRedux(
        _ value: JSONValue, replaced: Int, url: URL, progress: ((TransferProgress) -> Void)?
    ) throws(SessionStoreError) -> SessionImportResult {
        let document: ReduxDevToolsFormat.Document
        do throws(ImportProblem) {
            document = try ReduxDevToolsFormat.parse(value, limits: SessionImporter.parseLimits(maxLineBytes: maxLineBytes))
        } catch {
            throw .malformedImport(path: url.path, line: nil, reason: error.reason)
        }
        let session = document.session
        // Times come from the document (`@@INIT`, the actions' timestamps), else from the file: never from the
        // import's clock.
        let startedAt = document.startedAt ?? SessionImporter.modificationTime(of: url)
        let staging = try ImportStaging(into: store)
        let recording = try staging.store.createSession(
            appName: session?.app ?? url.deletingPathExtension().lastPathComponent, instance: session?.instance,
            protocolVersion: session?.protocolVersion ?? 0, stateType: session?.stateType,
            initialState: document.initialState ?? .null, startedAt: Date(timeIntervalSince1970: startedAt),
            importedFrom: url.lastPathComponent)
        do throws(SessionStoreError) {
            let steps = document.steps
            let file = url.lastPathComponent
            var previous = document.initialState ?? .null
            var previousTime = startedAt
            var count: Int64 = 0
            /// Rewind's own export: the original session's index of each row written, to the index written here.
            var renumbered: [Int64: Int64] = [:]
            /// The stretch of unknown state open now (the row that opened it, and why); nil while the state is known.
            /// Stated in the rows of another file (Rewind's own export states its own).
            var openStretch: UnknownStateMark?
            @discardableResult
            func append(_ event: NewEvent, _ state: JSONValue, keyframe: Bool) throws(SessionStoreError) -> Int64 {
                var event = event
                if !document.fromRewind {
                    // This import states what the rows of another file mean (a session file's rows say it).
                    event.meaning.unknownState = openStretch
                }
                let written = recording.appendImported(event, stateAfter: state, forceKeyframe: keyframe)
                guard written != 0 else {
                    throw recording.lastError ?? .unwritable(path: recording.fileURL.path, reason: "the recording stopped")
                }
                count += 1
                return written
            }
            /// The mark of a stretch of unknown state opened by the row about to be written.
            func openedByNextRow(_ reason: UnknownStateReason) -> UnknownStateMark {
                UnknownStateMark(reason: reason, cause: count + 1)
            }
            // Unknown states (docs/SESSION-FORMAT.md, "Unknown states"): as for an app's coalesced range, a `dropped`
            // row announces each stretch, its actions follow without patches, and a `snapshot` row carries the next
            // state the file holds. An unknown initial state is recorded as null and the opening row is labelled
            // `initial_unknown`: its stretch takes in the initial state and the row itself.
            let total = Int64(steps.count) + ReduxUnknownStates.extraRows(document)
            progress?(TransferProgress(completed: 0, total: total, unit: .events))
            if ReduxUnknownStates.opensAtStart(document) {
                let initialUnknown = document.initialState == nil
                let mark = openedByNextRow(initialUnknown ? .initialUnknown : .dropped)
                openStretch = initialUnknown ? mark : nil  // without an initial state, the opening row's own is unknown
                try append(NewEvent(time: startedAt, kind: .dropped,
                                    label: initialUnknown ? "initial_unknown" : "dropped",
                                    action: ReduxUnknownStates.openingRange(document),
                                    detail: ReduxUnknownStates.openingDetail(document, file: file)),
                           previous, keyframe: false)
                openStretch = mark
            }
            for (position, step) in steps.enumerated() {
                var event = step.event
                if step.untimed { event.time = previousTime } else { previousTime = event.time }
                if document.statesMeaning { event.meaning = Self.renumber(event.meaning, renumbered) }
                event.meaning.reducerError = event.meaning.reducerError ?? step.reducerError
                let written: Int64
                if let state = step.state, openStretch == nil {
                    event.patch = step.noPatch ? nil : JSONPatch.diff(from: previous, to: state)
                    written = try append(event, state, keyframe: step.noPatch && state != previous)
                    previous = state
                } else if let state = step.state {
                    // The action's own row stays in the stretch; the state the file holds after it follows.
                    event.patch = nil
                    written = try append(event, previous, keyframe: false)
                    openStretch = nil
                    try append(NewEvent(time: event.time, kind: .snapshot, label: "state",
                                        detail: "computedStates[\(step.entry)] of \(file): the state after action "
                                            + "\(event.appSeq ?? Int64(position + 1)), known again"),
                               state, keyframe: true)
                    previous = state
                } else {
                    if openStretch == nil {
                        let run = ReduxUnknownStates.run(of: steps, from: position)
                        let mark = openedByNextRow(.dropped)
                        try append(NewEvent(time: event.time, kind: .dropped, label: "dropped",
                                            action: ["from": .int(run.from), "to": .int(run.to)],
                                            detail: ReduxUnknownStates.stretchDetail(run, file: file)),
                                   previous, keyframe: false)
                        openStretch = mark
                    }
                    event.patch = nil
                    written = try append(event, previous, keyframe: false)
                }
                if let original = step.originalIndex { renumbered[original] = written }
                if step.skippedInFile {
                    // Redux DevTools skipped it: its states were computed without it, as after a skip in Rewind.
                    try append(NewEvent(time: event.time, kind: .skip, label: "skip",
                                        detail: "event \(written) skipped in Redux DevTools",
                                        meaning: RowMeaning(skip: SkipMark(event: written, skipped: true))),
                               previous, keyframe: false)
                }
                if count % 4096 == 0 { progress?(TransferProgress(completed: count, total: total, unit: .events)) }
            }
            try finish(recording, in: staging, as: session?.endState,
                       endedAt: session?.endedAt ?? Date(timeIntervalSince1970: previousTime))
            // The rows of another file, and of Rewind's own newer exports, state what they mean (above); an export of
            // an older Rewind does not: the migration reader works it out from its rows' texts.
            if document.fromRewind && !document.statesMeaning {
                try SchemaOneMeaning.derive(inFileAt: recording.fileURL.path)
            }
            try staging.publish(recording.id)
            progress?(TransferProgress(completed: total, total: total, unit: .events))
            let warnings = [
                SessionImporter.loneSurrogatesWarning(replaced + document.replacedSurrogates),
                ReduxSerializationMarkers.warning(document.serializationMarkers),
                ReduxUnknownStates.warning(document),
            ]
            return SessionImportResult(id: recording.id, format: .reduxDevTools, eventCount: count,
                                       warnings: warnings.compactMap { $0 })
        } catch {
            staging.abandon(recording)
            throw error
        }
    }

    /// The file's modification time (unix seconds): the only time an export without times has. The import's own
    /// clock only when the file cannot be examined.
    package static func modificationTime(of url: URL) -> Double {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return Date().timeIntervalSince1970 }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    // MARK: Ending

    private func finish(_ recording: SessionRecording, in staging: ImportStaging, as endState: SessionEndState?,
                        endedAt: Date?) throws(SessionStoreError) {
        try staging.finish(recording, as: endState == .interrupted || endState == .live ? .interrupted : .clean,
                           endedAt: endedAt)
    }
}
