import RewindTUI
import RewindWire

/// A real data source whose sessions all report their app connected, as the daemon's own timeline sees a live
/// session: lets the controller's row-by-row refusals (unknown states, branch rows) be tested on a session file
/// without running an app. Everything else is forwarded unchanged.
final class AppConnectedSource: TimelineDataSource, @unchecked Sendable {  // immutable; the wrapped source is Sendable
    private let wrapped: any TimelineDataSource

    init(_ wrapped: any TimelineDataSource) {
        self.wrapped = wrapped
    }

    var changeCounter: UInt64 { wrapped.changeCounter }
    func header() -> TimelineHeader { wrapped.header() }
    func sessions() -> [TimelineSession] {
        wrapped.sessions().map { session in
            var connected = session
            connected.appConnected = true
            return connected
        }
    }
    func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
        try wrapped.events(session: session, range: range)
    }
    func event(session: String, index: Int) throws -> TimelineEvent {
        try wrapped.event(session: session, index: index)
    }
    func state(session: String, index: Int) throws -> JSONValue { try wrapped.state(session: session, index: index) }
    func stateBefore(session: String, index: Int) throws -> JSONValue? {
        try wrapped.stateBefore(session: session, index: index)
    }
}
