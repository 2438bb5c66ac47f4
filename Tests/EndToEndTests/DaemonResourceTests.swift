import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// What the real `rewind serve` process holds over time: memory after many finished app runs, CPU and service
/// at its descriptor limit. Measured from /proc of the child process, apart from the tests running beside.
@Suite("Daemon resources: finished runs freed, graceful at the descriptor limit")
struct DaemonResourceTests {
    /// Resident memory of process `pid` in bytes.
    private static func residentBytes(of pid: Int32) -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// User + system CPU seconds used so far by process `pid`.
    private static func cpuSeconds(of pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A `hello` whose state is about `bytes` of JSON: an array of small objects, as an app's list would be.
    private static func bigHello(instance: String, bytes: Int) -> String {
        let items = (0..<(bytes / 80)).map { #"{"id":\#($0),"title":"item \#($0) of the list","done":false}"# }
        return #"{"type":"hello","protocol":1,"app":{"name":"heavy","instance":"\#(instance)"},"#
            + #""state":{"count":0,"items":[\#(items.joined(separator: ","))]},"capabilities":[]}"#
    }

    @Test("finished app runs with a 4 MiB state are freed: the daemon's memory stops growing")
    func finishedRunsAreFreed() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        // Its admission and message clocks scaled like the tests' own: under ThreadSanitizer a 4 MiB hello once
        // took the daemon longer than the default 10 s to take in, and it rightly closed the connection.
        let served = try DaemonProcess(dataDirectory: data, options: [
            "--hello-timeout", String(TestTime.seconds(10)), "--message-timeout", String(TestTime.seconds(30)),
        ], startTimeout: 20)
        let daemon = served.process, port = served.port
        defer { daemon.signal(SIGKILL) }
        var resident: [Int] = []
        for run in 0..<12 {
            let app = try DaemonPeer(port: port, timeout: TestTime.seconds(20))
            try app.hello(Self.bigHello(instance: "run-\(run)", bytes: 4 << 20))
            for seq in 1...3 { try app.send(AppFrames.action(seq: seq)) }
            app.expectOpen()
            try app.raw.sendClose(code: 1000)
            _ = try? app.raw.readCloseCode()
            #expect(ProcessResources.settle(timeout: 20) {
                daemon.stderrLines.filter { $0.contains(" ended") }.count > run
            }, "stderr: \(daemon.stderrLines.suffix(3))")
            resident.append(Self.residentBytes(of: daemon.pid))
        }
        let growth = resident[11] - resident[1]
        print("[finished runs] daemon resident memory after runs 2, 6, 12 of a 4 MiB state: "
              + "\(resident[1] >> 20), \(resident[5] >> 20), \(resident[11] >> 20) MiB "
              + "(\(growth >> 20) MiB over 10 runs)")
        // AddressSanitizer keeps freed memory in its quarantine on purpose: under a sanitizer the figure is printed,
        // not checked (the plain `make test` run checks it).
        let bound = TestTime.scale > 1 ? Int.max : 60 << 20
        #expect(growth < bound, "grew \(growth >> 20) MiB over 10 finished runs: \(resident.map { $0 >> 20 }) MiB")
    }

    @Test("at a 96-descriptor limit, 150 silent connections neither spin the daemon nor keep a good app out")
    func descriptorLimit() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-fds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = FreePort.next()
        let command = "ulimit -n 96 && exec '\(Executables.path("rewind"))' serve --headless --port \(port) "
            + "--data '\(data.path)' --hello-timeout 1"
        let daemon = try ChildProcess("/bin/sh", ["-c", command])
        defer { daemon.signal(SIGKILL) }
        try #require(daemon.waitForLine(timeout: 20, stderr: true) { $0.contains("listening on") } != nil)
        var silent: [RawWebSocketClient] = []
        for _ in 0..<150 {
            let client = try RawWebSocketClient(port: port, timeout: 0.2)
            try? client.sendRaw(Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: rewind.v1\r\n\r\n").utf8))
            silent.append(client)
        }
        defer { silent.forEach { $0.drop() } }
        usleep(300_000)
        let before = Self.cpuSeconds(of: daemon.pid)
        usleep(1_000_000)
        let used = Self.cpuSeconds(of: daemon.pid) - before
        print(String(format: "[descriptor limit] daemon CPU with 150 silent connections at 96 descriptors: "
                     + "%.2f s in 1 s", used))
        #expect(used < TestTime.seconds(0.3), "the daemon used \(used) s of CPU in 1 s")
        // The silent connections time out in turns; a good app gets in and records.
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(15))
        var recorded = false
        while !recorded && Date() < deadline {
            if let app = try? DaemonPeer(port: port, timeout: TestTime.seconds(1)), (try? app.send(AppFrames.hello(name: "good"))) != nil,
               let welcome = try? app.next(), welcome["type"] == "welcome" {
                try app.send(AppFrames.action(seq: 1))
                app.expectOpen()
                recorded = true
            }
        }
        #expect(recorded)
    }
}
