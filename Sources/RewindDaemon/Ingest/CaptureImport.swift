import Foundation
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// Records capture files — what an app's inspector wrote on its own, without a daemon (docs/SESSION-FORMAT.md,
/// "Capture files") — into new sessions, through the daemon's own ingest machine (``AppIngest``): a capture means
/// exactly what the same messages would have meant live.
///
/// - **Runs.** The files are grouped by ``CaptureRun/group(_:)``: the offline parts of one app run make one session
///   (in part order), each triggered capture one of its own.
/// - **Connections.** A run's first file is the run's first connection: its `hello` starts the session (the actions
///   before its `seq` are counted lost, as for any new session) and its messages follow on that connection. Each
///   later part is a reconnect of the same run: the previous connection closes, the machine continues from what the
///   session file committed (as the daemon does, ``SessionRegistry``'s resume point) and the part's `hello` arrives
///   on a new connection, `resumed`. So the actions between two parts that are not in the files (an earlier part
///   deleted from the rolling window) are counted lost by the ingest's own rules, and a part that continues where
///   the previous one ended loses nothing. Messages the machine refuses (`out_of_order`, a `patch_failed`…) are
///   recorded as it records them: as `error` rows, not as a failure of the import.
/// - **Time.** The machine's clock is the capture's own: it starts at the first header's `createdAt` (the session's
///   start), moves to each later header's `createdAt` and to each action's `time`, and never goes back. The rows
///   the machine adds itself (`lost`, `dropped`, `snapshot`, `reconnect`) therefore carry the time of what preceded
///   them in the capture, never the importer's clock.
/// - **End.** The session ends `clean` when the run's last file ends with the app's `goodbye` (whose number is the
///   last action accounted for, the ingest's rule), else `interrupted`.
/// - **All or nothing.** Sessions are written into the data directory's staging folder (``ImportStaging``, as for
///   every import) and moved in only once every run was recorded: a file that does not read (a bad header, a line 2
///   that is not a `hello`, a later line that does not decode) fails the whole import and leaves no session. An
///   incomplete last line (the app stopped while writing it) is passed over with a warning.
///
/// Threading: a value; ``importFiles(_:)`` runs on the caller's thread (the recordings write on their own threads
/// and are finished before it returns).
package struct CaptureImport: Sendable {
    /// The data directory the sessions are created in.
    package let store: SessionStore
    /// The largest line read (the daemon's largest message), which also bounds the state the machine rebuilds.
    package let maxMessageBytes: Int

    /// An importer into `store`.
    package init(store: SessionStore, maxMessageBytes: Int = DaemonConfiguration.defaultMaxMessageBytes) {
        self.store = store
        self.maxMessageBytes = maxMessageBytes
    }

    /// The capture files of `directory`: its regular files whose names end with ``CaptureHeader/fileSuffix``, by
    /// name (subdirectories are not read). Throws `unreadable` when the directory cannot be listed.
    package static func captureFiles(in directory: URL) throws(SessionStoreError) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadable(path: directory.path, reason: "\(error.localizedDescription)")
        }
        return names.filter { $0.hasSuffix(CaptureHeader.fileSuffix) }.sorted().map {
            directory.appendingPathComponent($0)
        }.filter { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// Records the capture files `urls` into new sessions, one per run (see the type's rules); returns them in the
    /// order the runs began. A file given twice is read once. Throws (leaving no session) `unreadable`,
    /// `malformedImport` naming the file and the line, or a write error of the data directory.
    package func importFiles(_ urls: [URL]) throws(SessionStoreError) -> [CaptureImportResult] {
        var files: [CaptureRun.File] = []
        var seen: Set<String> = []
        for url in urls where seen.insert(url.standardizedFileURL.path).inserted {  // a file named twice counts once
            let reader = try CaptureFileReader(url: url, maxMessageBytes: maxMessageBytes)
            files.append(CaptureRun.File(url: url, header: reader.header))
        }
        let runs = try CaptureRun.group(files)
        let staging = try ImportStaging(into: store)
        var staged: [CaptureImportResult] = []
        var published = 0
        do throws(SessionStoreError) {
            for run in runs { staged.append(try record(run, in: staging)) }
            for result in staged {
                try staging.publish(result.id)
                published += 1
            }
        } catch {
            for result in staged.dropFirst(published) { staging.discard(result.id) }
            throw error
        }
        return staged
    }

    /// Records one run into a new session of `staging`, finished but not published.
    private func record(_ run: CaptureRun, in staging: ImportStaging) throws(SessionStoreError) -> CaptureImportResult {
        let first = try CaptureFileReader(url: run.files[0].url, maxMessageBytes: maxMessageBytes)
        let hello = try first.readHello()
        var clock = IngestClock(monotonic: first.header.createdAt, wall: first.header.createdAt)
        let recording = try staging.store.createSession(
            appName: hello.app.name, instance: hello.app.instance, protocolVersion: hello.protocolVersion,
            stateType: hello.stateType ?? first.header.stateType, initialState: hello.state,
            startedAt: Date(timeIntervalSince1970: first.header.createdAt), importedFrom: run.sourceDescription)
        do throws(SessionStoreError) {
            // A triggered capture holds the app's last actions on purpose: those before it are not lost, just not
            // asked for. An offline run's first part starts where the rolling window kept it: what came before was
            // deleted, and is counted lost.
            var ingest = AppIngest(newSessionID: recording.id.rawValue, hello: hello, maxStateBytes: maxMessageBytes,
                                   startsAtHello: run.reason == .trigger)
            var connection = ConnectionID(rawValue: 1)
            var actions: Int64 = 0
            var warnings: [String] = []
            var endsWithGoodbye = false

            var failure: SessionStoreError?
            /// Appends `output`'s row (the messages and closes meant for the app have nobody to go to); the first
            /// failure is kept in `failure`, and what follows it is not written.
            func carryOut(_ output: IngestOutput) {
                guard failure == nil, case .append(let row) = output else { return }
                let index = recording.appendImported(row.event, stateAfter: row.stateAfter,
                                                     forceKeyframe: row.forceKeyframe)
                guard index == row.index else {
                    failure = recording.lastError
                        ?? .unwritable(path: recording.fileURL.path,
                                       reason: "the recording numbered row \(row.index) as \(index)")
                    return
                }
                if row.event.kind == .action { actions += 1 }
            }
            /// Carries out `outputs` in order; throws the first failure.
            func write(_ outputs: [IngestOutput]) throws(SessionStoreError) {
                outputs.forEach(carryOut)
                if let failure { throw failure }
            }

            var reader = first
            var readerHello = hello
            for (position, file) in run.files.enumerated() {
                if position > 0 {
                    reader = try CaptureFileReader(url: file.url, maxMessageBytes: maxMessageBytes)
                    readerHello = try reader.readHello()
                    // The previous part's connection closes; the run comes back on a new one, as after any reconnect.
                    _ = ingest.disconnect(connection, daemonStopping: false)
                    recording.flush()
                    if let error = recording.lastError { throw error }
                    let point = try SessionRegistry.resumePoint(of: recording.id, recording: recording,
                                                                in: staging.store, maxStateBytes: maxMessageBytes)
                    ingest = AppIngest(resumingSessionID: recording.id.rawValue, from: point,
                                       maxStateBytes: maxMessageBytes)
                    connection = ConnectionID(rawValue: connection.rawValue + 1)
                    clock.advance(to: reader.header.createdAt)
                }
                try write(ingest.connect(connection, hello: readerHello, resumed: position > 0, at: clock))
                endsWithGoodbye = false
                while let next = try reader.nextMessage() {
                    let message = next.message
                    if let time = message.firstActionTime { clock.advance(to: time) }
                    // Each row is written as soon as it is made, so that a batch's rows let go of their states
                    // before the next patch applies (in place).
                    ingest.receive(message, bytes: next.bytes, on: connection, at: clock, handingOverTo: carryOut)
                    if let failure { throw failure }
                    if let time = message.lastActionTime { clock.advance(to: time) }
                    // No app waits for acknowledgments: what the machine keeps for them is let go at once.
                    _ = ingest.committed(through: ingest.nextIndex - 1, at: clock)
                    if case .goodbye = message { endsWithGoodbye = true } else { endsWithGoodbye = false }
                }
                if let warning = reader.warning { warnings.append(warning) }
            }
            let machineEnd = ingest.disconnect(connection, daemonStopping: false)
            let endState: SessionEndState = endsWithGoodbye && machineEnd == .clean ? .clean : .interrupted
            try staging.finish(recording, as: endState, endedAt: Date(timeIntervalSince1970: clock.wall))
            return CaptureImportResult(id: recording.id, app: run.app, reason: run.reason,
                                       note: first.header.note, files: run.files.map(\.url),
                                       eventCount: ingest.nextIndex - 1, actionCount: actions,
                                       lostActions: ingest.lostActions, endState: endState, warnings: warnings)
        } catch {
            staging.abandon(recording)
            throw error
        }
    }
}

extension IngestClock {
    /// Moves both readings to `time` (seconds since 1970) when it is later: a capture's clock never goes back.
    fileprivate mutating func advance(to time: Double) {
        guard time > wall else { return }
        monotonic += time - wall
        wall = time
    }
}
