import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// A daemon restarted after a `kill -9` over many sessions it left `live` listens at once, whatever the disk is
/// doing: it repairs them (marks them interrupted) in the background, and an app reconnecting to one of them
/// meanwhile resumes its session once that session's repair is done.
@Suite("Restart over interrupted sessions", .serialized)
struct RestartOverInterruptedSessionsTests {
    /// How many sessions the killed daemon leaves behind.
    private static let sessions = 20

    @Test("with the disk frozen, a daemon restarted over sessions a killed daemon left live listens at once; an app reconnecting meanwhile resumes its session once the disk answers")
    func listensWhileTheRepairWaitsForTheDisk() throws {
        guard let (disk, data) = FrozenDisk.forTest("restart-over-a-frozen-disk") else { return }
        defer { disk.cleanup() }

        // A first daemon records the sessions of 20 app runs (each file is written before its welcome), and is killed
        // with all of them live.
        let first = try DaemonProcess(dataDirectory: data)
        var apps: [(instance: String, session: String)] = []
        var peers: [DaemonPeer] = []
        for number in 0..<Self.sessions {
            let peer = try DaemonPeer(port: first.port)
            let instance = "run-\(number)"
            let session = try #require(try peer.hello(AppFrames.hello(name: "restarted", instance: instance)))
            apps.append((instance, session))
            peers.append(peer)
        }
        first.process.signal(SIGKILL)
        #expect(first.process.waitForExit(timeout: 10) != nil)
        peers.removeAll()
        let left = try SessionStore(directory: data).listSessions()
        try #require(left.count == Self.sessions, "\(left.map(\.id))")

        // The disk stops answering; a new daemon starts over the same directory.
        disk.freeze()
        let restarted = try DaemonProcess(dataDirectory: data, environment: disk.environment, startTimeout: nil)
        let daemon = restarted.process, port = restarted.port
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit(timeout: 20)
        }
        // Within a second of its own start (the process's start-up comes on top).
        #expect(daemon.waitForLine(timeout: 2, stderr: true) { $0.contains("listening on") } != nil,
                "the daemon did not listen while the disk was frozen: \(daemon.stderrLines)")
        #expect(!daemon.stderrLines.contains { $0.contains("session(s) interrupted") },
                "the repair cannot have ended while the disk is frozen: \(daemon.stderrLines)")

        // The app of the session the repair takes last reconnects while nothing has been repaired yet.
        let returning = try #require(apps.max { $0.session < $1.session })
        let app = try DaemonPeer(port: port, timeout: TestTime.seconds(15))
        try app.send(AppFrames.hello(name: "restarted", instance: returning.instance))
        disk.thaw()
        let welcome = try app.next()
        #expect(welcome["type"] == "welcome", "\(welcome)")
        #expect(welcome["session"]?.stringValue == returning.session, "\(welcome)")
        #expect(welcome["resumed"] == true, "\(welcome)")

        let marked = daemon.waitForLine(timeout: 15, stderr: true) { $0.contains("session(s) interrupted") }
        #expect(marked != nil, "\(daemon.stderrLines)")
        // Every session is listed: the resumed one live, the others interrupted.
        let listed = try SessionStore(directory: data).listSessions()
        #expect(listed.count == Self.sessions)
        #expect(listed.first { $0.id.rawValue == returning.session }?.endState == .live)
        #expect(listed.filter { $0.id.rawValue != returning.session }.allSatisfy { $0.endState == .interrupted })
        app.expectOpen()
    }
}
