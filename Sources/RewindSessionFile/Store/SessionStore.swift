import Foundation
import RewindWire

/// The data directory: one SQLite file per session (`<id>.rewind`, plus its `-wal`/`-shm` companions while open
/// and a `<id>.lock` side file while recorded). Creates recordings, lists sessions, opens readers, repairs
/// sessions whose recorder died, deletes sessions.
/// Threading: immutable; every method may be called from any thread, and several processes may use the same
/// directory at once (the daemon recording, the CLI listing or exporting). Within one process, the calls that take
/// a session's lock coordinate with the background repair of interrupted sessions through ``recovery``.
package final class SessionStore: Sendable {
    /// The data directory.
    package let directory: URL
    /// How new recordings buffer, batch and keyframe.
    package let options: RecordingOptions
    /// This process's coordination of the work on the sessions' locks in this directory: the background repair of
    /// interrupted sessions and the calls that take a session's lock (shared by every store on the directory).
    package let recovery: InterruptedSessionRecovery

    /// Opens the data directory, creating it (and its parents) with mode 0700 when missing — unless `creating` is
    /// false (the commands that only read sessions), which throws `unreadable` "no such directory" instead.
    /// Throws `unwritable` (with the operating system's reason) when it cannot be created or is not a directory.
    package init(directory: URL, options: RecordingOptions = RecordingOptions(),
                creating: Bool = true) throws(SessionStoreError) {
        self.directory = directory.standardizedFileURL
        self.options = options
        self.recovery = InterruptedSessionRecovery.forDirectory(directory.standardizedFileURL.path)
        let path = self.directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw creating ? .unwritable(path: path, reason: "it exists and is not a directory")
                               : .unreadable(path: path, reason: "it is not a directory")
            }
            return
        }
        guard creating else { throw .unreadable(path: path, reason: "no such directory") }
        try SessionStore.makeDirectory(path, wanted: path)
    }

    /// The version of the session file schema this build writes and reads up to (docs/SESSION-FORMAT.md).
    package static var schemaVersion: Int { SessionSchema.version }

    /// `mkdir -p` with mode 0700, reporting the operating system's reason for a failure.
    private static func makeDirectory(_ path: String, wanted: String) throws(SessionStoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .unwritable(path: wanted, reason: "\(path) is not a directory")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent, wanted: wanted) }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .unwritable(path: wanted, reason: String(cString: strerror(errno)))
        }
    }

    /// `~/.rewind/sessions`, where `~` is `$HOME` when set.
    package static var defaultDirectory: URL {
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            .map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".rewind", isDirectory: true).appendingPathComponent("sessions", isDirectory: true)
    }

    /// The session file of `id`.
    package func fileURL(for id: SessionID) -> URL {
        directory.appendingPathComponent("\(id.rawValue).\(SessionSchema.fileExtension)")
    }

    private func lockURL(for id: SessionID) -> URL {
        directory.appendingPathComponent("\(id.rawValue).\(SessionSchema.lockExtension)")
    }

    // MARK: Recording

    /// Creates a new session file (id generated from `appName` and `startedAt`), writes its metadata and the
    /// initial state (keyframe 0), takes its lock and starts its writer thread. Creates the data directory again
    /// when it was removed since the store was opened.
    package func createSession(
        appName: String, instance: String? = nil, protocolVersion: Int, stateType: String? = nil,
        initialState: JSONValue, startedAt: Date = Date()
    ) throws(SessionStoreError) -> SessionRecording {
        try createSession(appName: appName, instance: instance, protocolVersion: protocolVersion,
                          stateType: stateType, initialState: initialState, startedAt: startedAt,
                          importedFrom: nil)
    }

    /// `createSession`, recording where an imported session came from.
    package func createSession(
        appName: String, instance: String?, protocolVersion: Int, stateType: String?,
        initialState: JSONValue, startedAt: Date, importedFrom: String?
    ) throws(SessionStoreError) -> SessionRecording {
        // A data directory removed while the daemon runs is created again (one stat when it exists).
        try recreateDirectoryIfMissing()
        var attempts = 0
        while true {
            attempts += 1
            let id = SessionID.generate(appName: appName, date: startedAt)
            guard let lock = try SessionLock.acquireNew(at: lockURL(for: id).path) else {
                if attempts < 100 { continue }
                throw .unwritable(path: directory.path, reason: "could not find a free session id")
            }
            let fileURL = fileURL(for: id)
            var metadata: [(SessionSchema.MetaKey, String)] = [
                (.sessionID, id.rawValue),
                (.app, appName),
                (.startedAt, SessionFileReader.text(of: startedAt)),
                (.protocolVersion, String(protocolVersion)),
                (.endState, SessionEndState.live.rawValue),
            ]
            if let instance { metadata.append((.instance, instance)) }
            if let stateType { metadata.append((.stateType, stateType)) }
            if let importedFrom { metadata.append((.importedFrom, importedFrom)) }
            let writer: SessionFileWriter
            do {
                writer = try SessionFileWriter.create(
                    path: fileURL.path, metadata: metadata, initialState: initialState.serialized(),
                    maxFileBytes: options.maxFileBytes)
            } catch {
                lock.release(removingFile: true)
                throw error
            }
            let pipeline = RecordingPipeline(
                id: id, path: fileURL.path, options: options, writer: writer, lock: lock, initialState: initialState)
            return SessionRecording(pipeline: pipeline, fileURL: fileURL)
        }
    }

    /// Reopens a finished (or interrupted) session to append more events — an app that reconnects continues its
    /// session. Takes the session's lock (throws `sessionInUse` while a live recorder holds it), marks it live
    /// again, and numbers new events after the last committed one. The first event of each branch after resuming
    /// gets a keyframe, so its patch need not connect to what was recorded before. A damaged file (events numbered
    /// outside 1…2^62, or its last event at 2^62: `SessionFileReader.checkNumbering`) is refused with `corrupt`
    /// before anything is written to it.
    ///
    /// Threading: any thread that may wait for a disk. A session this process is repairing in the background
    /// (``recoverInterruptedInBackground(completion:)``) is waited for — that one session's repair, not the others'
    /// — and one still waiting for its repair is taken out of the queue (resuming marks it live again anyway), so
    /// the repair's lock is never mistaken for another process's.
    package func resumeSession(_ id: SessionID) throws(SessionStoreError) -> SessionRecording {
        try recovery.withSessionClaimed(id) { () throws(SessionStoreError) -> SessionRecording in
            try resumeClaimedSession(id)
        }
    }

    /// ``resumeSession(_:)`` once the session is claimed in ``recovery``. The caller's thread (it may wait for a disk).
    private func resumeClaimedSession(_ id: SessionID) throws(SessionStoreError) -> SessionRecording {
        let fileURL = fileURL(for: id)
        guard FileManager.default.fileExists(atPath: fileURL.path) else { throw .notFound(id) }
        let lockPath = lockURL(for: id).path
        let lock: SessionLock
        if let held = SessionLock.acquireExisting(at: lockPath) {
            lock = held
        } else if FileManager.default.fileExists(atPath: lockPath) {
            throw .sessionInUse(id)
        } else if let created = try SessionLock.acquireNew(at: lockPath) {
            lock = created
        } else {
            throw .sessionInUse(id)
        }
        do throws(SessionStoreError) {
            let writer = try SessionFileWriter.openExisting(path: fileURL.path, maxFileBytes: options.maxFileBytes,
                                                           appending: true)
            let lastIndex = try writer.maxIndex()
            try writer.markLive()
            let pipeline = RecordingPipeline(
                id: id, path: fileURL.path, options: options, writer: writer, lock: lock, initialState: nil,
                lastIndex: lastIndex)
            return SessionRecording(pipeline: pipeline, fileURL: fileURL)
        } catch {
            lock.release(removingFile: true)
            throw error
        }
    }

    // MARK: Reading

    /// Every readable session in the directory, newest first. A `live` session whose recorder is gone reads
    /// as interrupted. Files that cannot be read (damaged, from a newer Rewind) are left out and reported to
    /// `skipped`, if given. Throws only when the directory itself cannot be read.
    package func listSessions(
        skipped: ((URL, SessionStoreError) -> Void)? = nil
    ) throws(SessionStoreError) -> [SessionMetadata] {
        var sessions: [SessionMetadata] = []
        for id in try sessionIDs() {
            do throws(SessionStoreError) {
                let file = try SessionFileReader(path: fileURL(for: id).path)
                defer { file.close() }
                sessions.append(try file.metadata(lockPath: lockURL(for: id).path))
            } catch {
                skipped?(fileURL(for: id), error)
            }
        }
        return sessions.sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }
    }

    /// Who recorded each session of the directory (app name, instance, start, state type), read from the files'
    /// `meta` tables only (no event is counted): what the daemon needs to find the newest session of an app
    /// identity. Unreadable files are left out. Throws only when the directory itself cannot be read.
    /// Cost: one open and one small query per file; the daemon runs it once, in the background, at start.
    package func sessionOwners() throws(SessionStoreError) -> [SessionOwner] {
        var owners: [SessionOwner] = []
        for id in try sessionIDs() {
            do throws(SessionStoreError) {
                let file = try SessionFileReader(path: fileURL(for: id).path)
                defer { file.close() }
                let values = try file.meta()
                guard let started = values[SessionSchema.MetaKey.startedAt.rawValue]
                    .flatMap(SessionFileReader.date(from:)) else { continue }
                owners.append(SessionOwner(
                    id: id, appName: values[SessionSchema.MetaKey.app.rawValue] ?? "",
                    instance: values[SessionSchema.MetaKey.instance.rawValue], startedAt: started,
                    stateType: values[SessionSchema.MetaKey.stateType.rawValue]))
            } catch {
                continue
            }
        }
        return owners
    }

    /// Creates the data directory again (mode 0700, with its parents) when it was removed or renamed while the
    /// daemon runs; nothing when it exists. Throws `unwritable` when it cannot be created or is not a directory.
    package func recreateDirectoryIfMissing() throws(SessionStoreError) {
        try SessionStore.makeDirectory(directory.path, wanted: directory.path)
    }

    /// Opens a reader on a session (finished, or being recorded), which rebuilds states up to `maxStateBytes` of
    /// compact JSON (``SessionReader/maxStateBytes``). Throws `corrupt` for a damaged file (among others, events
    /// numbered outside 1…2^62 or branches outside 0…2^62).
    package func openSession(_ id: SessionID, maxStateBytes: Int = SessionReader.defaultMaxStateBytes)
        throws(SessionStoreError) -> SessionReader {
        let url = fileURL(for: id)
        guard FileManager.default.fileExists(atPath: url.path) else { throw .notFound(id) }
        return try SessionReader(id: id, fileURL: url, lockURL: lockURL(for: id), maxStateBytes: maxStateBytes)
    }

    /// Turns what a user typed into a session id: the exact id, or the one id that starts with it.
    /// Throws `badSessionID` for text that is not a valid id, `notFound` or `ambiguousSessionID`.
    package func resolveSessionID(_ text: String) throws(SessionStoreError) -> SessionID {
        let wanted = try SessionID(validating: text)
        if FileManager.default.fileExists(atPath: fileURL(for: wanted).path) { return wanted }
        let matches = try sessionIDs().filter { $0.rawValue.hasPrefix(wanted.rawValue) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw .notFound(wanted) }
        throw .ambiguousSessionID(text, matches: matches)
    }

    // MARK: Maintenance

    /// Marks every session left `live` by a recorder that is gone as interrupted, with the time of its last
    /// committed event as its end, one after another. Sessions recorded right now (their lock is held, by this or
    /// another process) are left alone. Returns the ids repaired. Throws when the directory cannot be listed or a
    /// repair cannot be written.
    ///
    /// Threading: any thread that may wait for a disk (it opens, writes and syncs every interrupted file). A daemon
    /// uses ``recoverInterruptedInBackground(completion:)`` instead, so that it listens at once.
    package func recoverInterrupted() throws(SessionStoreError) -> [SessionID] {
        var repaired: [SessionID] = []
        for id in try sessionIDs() {
            let done = try recovery.withSessionClaimed(id) { () throws(SessionStoreError) -> Bool in
                try repairIfInterrupted(id)
            }
            if done { repaired.append(id) }
        }
        return repaired
    }

    /// Starts ``recoverInterrupted()`` on a background thread and returns at once; `completion` gets the ids
    /// repaired (or why the directory could not be listed) on that thread when it ends. A session the repair
    /// cannot write is left as it is (it still reads as interrupted, and the next start tries again).
    ///
    /// Meanwhile every call of this process that takes a session's lock (``resumeSession(_:)``,
    /// ``deleteSession(_:)``) coordinates with the repair, one session at a time: it waits only while that session is
    /// being repaired, and takes it out of the queue while it waits there (then the repair does not count it).
    /// Listings show the queued sessions as interrupted already (their lock is free), and one being repaired as live
    /// for that moment (the repair holds its lock).
    ///
    /// Threading: returns at once from any thread; the repair runs on a thread of its own.
    package func recoverInterruptedInBackground(
        completion: @escaping @Sendable (Result<[SessionID], SessionStoreError>) -> Void) {
        let thread = Thread { [self] in
            let ids: [SessionID]
            do throws(SessionStoreError) {
                ids = try sessionIDs()
            } catch {
                completion(.failure(error))
                return
            }
            recovery.enqueue(ids)
            var repaired: [SessionID] = []
            while let id = recovery.claimNextQueued() {
                defer { recovery.release(id) }
                recovery.currentRepairHook?(id)
                if (try? repairIfInterrupted(id)) == true { repaired.append(id) }
            }
            completion(.success(repaired))
        }
        thread.name = "rewind.store.recovery"
        thread.start()
    }

    /// Marks session `id` interrupted when its file says `live` and no process holds its lock; true when it did.
    /// The caller has claimed the session in ``recovery``. The repair's thread, or a caller that may wait for a disk.
    private func repairIfInterrupted(_ id: SessionID) throws(SessionStoreError) -> Bool {
        let lockPath = lockURL(for: id).path
        let path = fileURL(for: id).path
        let endState: String?
        do throws(SessionStoreError) {
            let file = try SessionFileReader(path: path)
            defer { file.close() }
            endState = try file.meta()[SessionSchema.MetaKey.endState.rawValue]
        } catch {
            return false
        }
        guard endState == SessionEndState.live.rawValue else { return false }
        let lock: SessionLock
        if let held = SessionLock.acquireExisting(at: lockPath) {
            lock = held
        } else if SessionLock.isHeld(at: lockPath) {
            return false
        } else if let created = try SessionLock.acquireNew(at: lockPath) {
            lock = created
        } else {
            return false
        }
        defer { lock.release(removingFile: true) }
        // Re-read under the lock: the recorder may have finished cleanly since the first look.
        let stillLive: Bool
        do throws(SessionStoreError) {
            let file = try SessionFileReader(path: path)
            defer { file.close() }
            stillLive = try file.meta()[SessionSchema.MetaKey.endState.rawValue] == SessionEndState.live.rawValue
        } catch {
            return false
        }
        guard stillLive else { return false }
        let writer = try SessionFileWriter.openExisting(path: path)
        defer { writer.close() }
        let end = try writer.lastEventTime().map { Date(timeIntervalSince1970: $0) }
            ?? (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
        try writer.markEnded(.interrupted, at: end)
        return true
    }

    /// Deletes a session's files. Throws `sessionInUse` while it is being recorded, `notFound` if it does not exist,
    /// `unwritable` (with the system's reason) when its file cannot be removed, leaving every file in place then.
    /// Threading: any thread that may wait for a disk; a session this process is repairing in the background is
    /// waited for (not taken for one being recorded), and one waiting for its repair is taken out of the queue.
    package func deleteSession(_ id: SessionID) throws(SessionStoreError) {
        try recovery.withSessionClaimed(id) { () throws(SessionStoreError) in try deleteClaimedSession(id) }
    }

    /// ``deleteSession(_:)`` once the session is claimed in ``recovery``. The caller's thread.
    private func deleteClaimedSession(_ id: SessionID) throws(SessionStoreError) {
        let url = fileURL(for: id)
        guard FileManager.default.fileExists(atPath: url.path) else { throw .notFound(id) }
        let lockPath = lockURL(for: id).path
        if SessionLock.isHeld(at: lockPath) { throw .sessionInUse(id) }
        if unlink(url.path) != 0 {
            let code = errno
            if code != ENOENT { throw .unwritable(path: url.path, reason: String(cString: strerror(code))) }
        }
        SessionFileWriter.removeFiles(of: url.path)
        unlink(lockPath)
    }

    /// The ids of the session files in the directory (files named `<valid id>.rewind`), sorted; no file is opened.
    /// Throws `unreadable` when the directory cannot be listed.
    package func sessionIDs() throws(SessionStoreError) -> [SessionID] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadable(path: directory.path, reason: SessionStore.reason(for: error, path: directory.path))
        }
        let suffix = ".\(SessionSchema.fileExtension)"
        return names.compactMap { name -> SessionID? in
            guard name.hasSuffix(suffix) else { return nil }
            return try? SessionID(validating: String(name.dropLast(suffix.count)))
        }.sorted()
    }

    /// The operating system's explanation of why the directory at `path` cannot be listed.
    private static func reason(for error: any Error, path: String) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if let handle = opendir(path) {
            closedir(handle)
            return nsError.localizedDescription
        }
        return String(cString: strerror(errno))
    }
}
