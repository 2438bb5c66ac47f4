import RewindWebSocket

/// The simulation's network: connections between the one app and the daemon, each with a direction per side that can
/// be cut (a reset seen by one side only leaves the other side's socket open: a half-open connection), and a delay
/// per message. Messages of one direction arrive in the order sent, unless that direction is cut (they are lost).
///
/// Threading: a value of the simulation's single thread.
struct SimulatedNetwork {
    /// One connection as both sides see it.
    struct Connection {
        let id: ConnectionID
        /// The app's socket is open (the app may send and receive on it).
        var appSideOpen = true
        /// The daemon's socket is open.
        var daemonSideOpen = true
        /// Messages from the app reach the daemon (false once black-holed or reset).
        var toDaemonFlows = true
        /// Messages from the daemon reach the app.
        var toAppFlows = true
        /// When the last message of each direction arrives (so that a direction stays in order).
        var lastArrivalAtDaemon = 0.0
        var lastArrivalAtApp = 0.0
        /// When the daemon last heard anything from the app on it (its keepalive's clock).
        var daemonLastHeard = 0.0
    }

    private(set) var connections: [ConnectionID: Connection] = [:]
    private var nextID: UInt64 = 1

    /// Opens a connection (both sides open).
    mutating func open(at now: Double) -> ConnectionID {
        let id = ConnectionID(rawValue: nextID)
        nextID += 1
        var connection = Connection(id: id)
        connection.daemonLastHeard = now
        connections[id] = connection
        return id
    }

    subscript(id: ConnectionID) -> Connection? {
        get { connections[id] }
        set { connections[id] = newValue }
    }

    /// When a message sent now from the app on `id`, delayed by `delay`, arrives at the daemon (in order); nil when it
    /// never does.
    mutating func arrivalAtDaemon(_ id: ConnectionID, now: Double, delay: Double) -> Double? {
        guard var connection = connections[id], connection.appSideOpen, connection.toDaemonFlows else { return nil }
        let arrival = max(now + delay, connection.lastArrivalAtDaemon)
        connection.lastArrivalAtDaemon = arrival
        connections[id] = connection
        return arrival
    }

    /// When a message sent now from the daemon on `id` arrives at the app; nil when it never does.
    mutating func arrivalAtApp(_ id: ConnectionID, now: Double, delay: Double) -> Double? {
        guard var connection = connections[id], connection.daemonSideOpen, connection.toAppFlows else { return nil }
        let arrival = max(now + delay, connection.lastArrivalAtApp)
        connection.lastArrivalAtApp = arrival
        connections[id] = connection
        return arrival
    }
}
