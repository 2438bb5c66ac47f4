import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// A disk that stops answering (a hung disk, a stalled network filesystem) must not stop the daemon from serving:
/// the WebSocket service thread does no disk work, so handshakes go on; a streaming app waits (the daemon stops
/// reading it once its backlog is full) and loses nothing; when the disk answers again, everything is recorded
/// (issue 19, item 10).
@Suite("Frozen disk", .serialized)
struct FrozenDiskTests {
    @Test("while the data directory is frozen, handshakes are answered at once; after it thaws nothing is lost")
    func frozenDataDirectory() throws {
        guard let (disk, data) = FrozenDisk.forTest("frozen-disk") else { return }
        defer { disk.cleanup() }
        let daemon = try disk.startDaemon()
        defer {
            daemon.process.signal(SIGTERM)
            _ = daemon.process.waitForExit(timeout: 20)
        }
        let app = try ChildProcess(
            Executables.path("stress"),
            ["--duration", "4", "--rate", "500", "--state-bytes", "1000", "--deliver-timeout", String(TestTime.seconds(60))],
            environment: ["REWIND_URL": daemon.url])
        usleep(1_000_000)

        disk.freeze()
        usleep(500_000)
        // The disk is really frozen: nothing more reaches the file while the app goes on dispatching.
        let before = try SessionAccount.of(instancePID: app.pid, in: data).recorded.count
        #expect(before > 0, "the app was recorded before the freeze")
        usleep(1_000_000)
        #expect(try SessionAccount.of(instancePID: app.pid, in: data).recorded.count == before)
        for subprotocol in [WireProtocol.appSubprotocol, WireProtocol.controlSubprotocol] {
            let started = Date()
            let peer = try DaemonPeer(port: daemon.port, subprotocol: subprotocol, timeout: TestTime.seconds(5))
            #expect(peer.handshakeStatus == 101)
            #expect(Date().timeIntervalSince(started) < TestTime.seconds(1), "a \(subprotocol) handshake took too long")
            peer.raw.drop()
        }
        usleep(1_500_000)
        disk.thaw()

        #expect(app.waitForExit(timeout: TestTime.seconds(90)) == 0, "\(app.stderrLines.suffix(5))")
        let sent = try SoakTests.sentActions(app)
        let report = try JSONValue(parsing: try #require(app.stderrLines.last { $0.hasPrefix("{") }))
        #expect(report["delivered"] == true, "\(report)")
        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit(timeout: 20) == 0)
        let account = try SessionAccount.of(instancePID: app.pid, in: data)
        #expect(account.accounts(for: sent), "sent \(sent), \(account); not recorded: \(account.missing(of: sent))")
        #expect(account.declaredLost == 0)
    }
}
