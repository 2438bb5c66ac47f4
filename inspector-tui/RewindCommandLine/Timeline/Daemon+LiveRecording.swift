import RewindDaemon
import RewindSessionFile
import RewindTUI

/// The in-process daemon `rewind` runs, as the timeline reads it (``LiveRecording``): the glue between the timeline
/// and the daemon lives with the command line, so that the timeline module does not depend on the daemon.
extension Daemon: LiveRecording {
    package var totalRecorded: UInt64 { events.totalRecorded }

    package var connectedAppCount: Int { sessions.filter(\.isLive).count }

    package func liveStatus(of id: SessionID) -> LiveSessionStatus? {
        guard let live = session(id) else { return nil }
        return LiveSessionStatus(isLive: live.isLive, committedIndex: live.committedIndex,
                                 capabilities: live.capabilities)
    }

    package func flush(_ id: SessionID) {
        session(id)?.flush()
    }
}
