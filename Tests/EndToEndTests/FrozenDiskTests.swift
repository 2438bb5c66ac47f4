import Foundation
import RewindDaemon
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
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-frozen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        guard TestTime.scale == 1 else {
            // A sanitizer's runtime must come first among the daemon's libraries; the preloaded one would precede it.
            print("skipped: the frozen-disk test does not run under a sanitizer (LD_PRELOAD)")
            return
        }
        let disk: FrozenDisk
        do {
            disk = try FrozenDisk(directory: data)
        } catch {
            print("skipped: the frozen-disk test needs clang (\(error))")
            return
        }
        defer { disk.thaw() }
        let port = FreePort.next()
        let daemon = try ChildProcess(Executables.path("rewind"),
                                      ["serve", "--headless", "--port", "\(port)", "--data", data.path],
                                      environment: disk.environment)
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit(timeout: 20)
        }
        let listening = Date(timeIntervalSinceNow: TestTime.seconds(10))
        while Date() < listening && !daemon.stderrLines.contains(where: { $0.contains("listening on") }) {
            usleep(20_000)
        }
        let app = try ChildProcess(
            Executables.path("stress"),
            ["--duration", "4", "--rate", "500", "--state-bytes", "1000", "--deliver-timeout", String(TestTime.seconds(60))],
            environment: ["REWIND_URL": "ws://127.0.0.1:\(port)"])
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
            let peer = try DaemonPeer(port: port, subprotocol: subprotocol, timeout: TestTime.seconds(5))
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
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: 20) == 0)
        let account = try SessionAccount.of(instancePID: app.pid, in: data)
        #expect(account.accounts(for: sent), "sent \(sent), \(account); not recorded: \(account.missing(of: sent))")
        #expect(account.declaredLost == 0)
    }
}
