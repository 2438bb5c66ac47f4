import Foundation
import RewindWire

/// What the inspector records on the app's own device, for when no daemon is there to record it
/// (docs/INTEGRATIONS.md, "QA and bug reports"):
///
/// - **Offline capture** (``InspectorConfiguration/captureOffline``, `REWIND_CAPTURE_DIR`): while no daemon is
///   connected, every frame the pipeline builds is written to a capture file in the capture directory — a rolling
///   window of at most ``InspectorConfiguration/captureMaxFiles`` files of
///   ``InspectorConfiguration/captureMaxFileBytes`` each. A file starts with the state the frames after it follow; a
///   new one (the next *part*) starts when the current one is full, and whenever the app goes offline again.
/// - **Capture on trigger** (``InspectorConfiguration/captureRecentActions``, `REWIND_CAPTURE_RECENT`): the frames of
///   the last N actions and a state they start from are kept in memory (``RecentActions``), and written to a capture
///   file when the app asks (``Inspector/captureNow(reason:timeout:)``).
///
/// Everything written is what the daemon would have been sent: encoded and redacted on the pipeline thread, never on
/// the app's. A capture that cannot be written (a full disk, a read-only directory) is said once on standard error and
/// offline capture stops; the app goes on.
///
/// Threading: owned by the pipeline thread (``InspectorPipeline``), which calls every method.
final class LocalCapture {
    private let identity: AppIdentity
    private let stateType: String
    private let directory: CaptureDirectory
    private let offlineEnabled: Bool
    private let maxFileBytes: Int
    /// The open offline part, if any.
    private var part: CaptureFile?
    /// The number of the last offline part started in this run.
    private var partNumber = 0
    /// Set once writing failed: offline capture is off for the rest of the run.
    private var offlineFailed = false
    /// True once the first offline part was announced on standard error.
    private var announced = false
    private var recent: RecentActions?
    /// How many recent actions to keep (0: none), and in how many bytes of frames at most.
    private let recentKeep: Int
    private let recentByteLimit: Int
    private var triggerCount = 0

    /// The capture the configuration asks for, or nil when it asks for none.
    init?(configuration: InspectorConfiguration, identity: AppIdentity, stateType: String) {
        guard configuration.captureOffline || configuration.captureRecentActions > 0 else { return nil }
        self.identity = identity
        self.stateType = stateType
        directory = CaptureDirectory(url: configuration.captureDirectory ?? CaptureDirectory.defaultURL,
                                     maxFiles: max(1, configuration.captureMaxFiles))
        offlineEnabled = configuration.captureOffline
        maxFileBytes = max(1, configuration.captureMaxFileBytes)
        recentKeep = configuration.captureRecentActions
        recentByteLimit = max(1 << 20, configuration.outboxBudgetBytes / 8)
    }

    /// The state the recorder started from (after action `seq`, usually 0).
    func start(seq: UInt64, state: JSONValue) {
        guard recentKeep > 0 else { return }
        recent = RecentActions(keep: recentKeep, byteLimit: recentByteLimit, seq: seq, state: state)
    }

    /// About to frame entries while no daemon is connected: opens an offline part when none is open, starting from
    /// `state` after action `seq` (the state the next frames follow), with the run's `sources` table. The part's
    /// `createdAt` is the first of those entries' dispatch time (on ``DispatchClock``), when earlier than now: a
    /// session made of it then starts before its first action.
    func willCaptureOffline(seq: UInt64, state: JSONValue, sources: [String], firstDispatchNanos: UInt64?,
                            daemonURL: String) {
        guard offlineEnabled, !offlineFailed, part == nil else { return }
        partNumber += 1
        var created = Date()
        if let firstDispatchNanos {
            let dispatched = Double(firstDispatchNanos) / 1e9 + DispatchClock.wallOffsetSeconds()
            if dispatched < created.timeIntervalSince1970 { created = Date(timeIntervalSince1970: dispatched) }
        }
        let url = directory.newFileURL(app: identity.name, createdAt: created, kind: "offline-\(partNumber)")
        let header = CaptureHeader(app: identity, reason: .offline, part: partNumber,
                                   createdAt: created.timeIntervalSince1970, stateType: stateType)
        do {
            try directory.prepare()
            part = try CaptureFile(url: url, header: header, hello: hello(seq: seq, state: state, sources: sources))
            directory.prune(keeping: url)
        } catch {
            fail(error)
            return
        }
        if !announced {
            announced = true
            log("no daemon at \(daemonURL): recording offline into \(directory.url.path) (at most \(directory.maxFiles) "
                + "files of \(maxFileBytes >> 10) KiB; `rewind import` reads them)")
        }
    }

    /// A frame was built. `offline`: no daemon is connected, so it belongs to the open offline part.
    func record(_ frame: [UInt8], through: UInt64, offline: Bool) {
        recent?.record(frame, through: through)
        guard offline, let part else { return }
        do { try part.append(frame) } catch { fail(error) }
    }

    /// The pipeline finished a turn (a drained chunk framed). When no coalesced range is open it knows the state after
    /// action `seq` whole: the recent actions may start a generation there. A full offline part ends here — with
    /// `goodbye` after action `latestSeq` when no range is open — and the next frames start the next part, from the
    /// last state known whole (a range open across the two parts is then a gap in the next part, its states unknown
    /// until the snapshot that closes it, as on a reconnect).
    func turnEnded(rangeOpen: Bool, seq: UInt64, state: JSONValue, latestSeq: UInt64) {
        if !rangeOpen { recent?.checkpoint(seq: seq, state: state) }
        if let part, part.bytes >= maxFileBytes {
            part.finish(goodbyeSeq: rangeOpen ? nil : latestSeq)
            self.part = nil
        }
    }

    /// The offline part (if one is open) ends: a daemon was reached, or the app stops. `goodbyeSeq`: the last action
    /// handed on, when nothing was left open (the file then ends with `goodbye`).
    func endOfflinePart(goodbyeSeq: UInt64?) {
        part?.finish(goodbyeSeq: goodbyeSeq)
        part = nil
    }

    /// True while offline capture is on and has not failed: what is dispatched while no daemon is connected is
    /// delivered to the capture files.
    var capturesOffline: Bool { offlineEnabled && !offlineFailed }

    /// The offline part being written, if any.
    var offlinePartURL: URL? { part?.url }

    /// Writes the kept recent actions to a new capture file (reason `trigger`, `note` the app's words) and returns its
    /// location.
    func writeRecent(note: String, sources: [String]) -> Result<URL, CaptureWriteError> {
        guard let recent else { return .failure(CaptureWriteError.noneKept) }
        guard let window = recent.capture() else {
            return .failure(CaptureWriteError(path: directory.url.path, doing: "capture recent actions into",
                                              reason: "the last actions outgrew the memory kept for them"))
        }
        triggerCount += 1
        // The file starts with the state before its first action: it was created, as far as a reader's clock goes,
        // no later than that action.
        var created = Date()
        if let first = window.messages.lazy.compactMap({ try? WireCodec.decodeAppMessage($0).firstActionTime }).first,
           first < created.timeIntervalSince1970 {
            created = Date(timeIntervalSince1970: first)
        }
        let kind = triggerCount == 1 ? "trigger" : "trigger-\(triggerCount)"
        let url = directory.newFileURL(app: identity.name, createdAt: created, kind: kind)
        let header = CaptureHeader(app: identity, reason: .trigger, note: note,
                                   createdAt: created.timeIntervalSince1970, stateType: stateType)
        do {
            try directory.prepare()
            let file = try CaptureFile(url: url, header: header,
                                       hello: hello(seq: window.seq, state: window.state, sources: sources))
            for message in window.messages { try file.append(message) }
            file.finish(goodbyeSeq: window.through)
            directory.prune(keeping: url)
            return .success(url)
        } catch {
            return .failure(error)
        }
    }

    private func hello(seq: UInt64, state: JSONValue, sources: [String]) -> Hello {
        Hello(app: identity, state: state, stateType: stateType, capabilities: [], seq: seq, sources: sources,
              dispatched: seq)
    }

    private func fail(_ error: CaptureWriteError) {
        part?.finish(goodbyeSeq: nil)
        part = nil
        offlineFailed = true
        log("offline capture stopped: \(error) (the app goes on; nothing more is captured in this run)")
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data("rewind inspector: \(message)\n".utf8))
    }
}
