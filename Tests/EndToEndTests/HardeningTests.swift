import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Hostile input and faults against a real daemon, each next to a well-behaved app whose session must go on
/// recording untouched: 100,000-level nesting, numbers past any range, duplicate keys, invalid UTF-8, a frame
/// claiming 1 GB, thousands of connections dropped, a full disk, an app killed mid-frame. (Single bad frames and
/// their error codes are in DaemonBadInputTests; this suite is about the daemon surviving them at scale.)
@Suite("Hardening: the daemon survives hostile peers and faults")
struct HardeningTests {
    /// A well-behaved app that records one `counter/set` action after another.
    private final class GoodApp {
        let peer: DaemonPeer
        let session: String?
        private(set) var seq = 0

        init(port: Int) throws {
            peer = try DaemonPeer(port: port)
            session = try peer.hello(AppFrames.hello(name: "good"))
        }

        func record(_ count: Int = 5) throws {
            for _ in 0..<count {
                seq += 1
                try peer.send(AppFrames.action(seq: seq))
            }
        }
    }

    /// Checks that every action of `good` is in its file, in order, with the state it leads to.
    private func expectIntact(_ good: GoodApp, _ harness: DaemonHarness,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        good.peer.expectOpen(sourceLocation: sourceLocation)
        let events = try recordedEvents(harness, good.session, atLeast: Int64(good.seq), sourceLocation: sourceLocation)
        #expect(events.map(\.appSeq) == (1...good.seq).map { Int64($0) }, sourceLocation: sourceLocation)
        #expect(try recordedFinalState(harness, good.session) == ["count": .int(Int64(good.seq))],
                sourceLocation: sourceLocation)
    }

    @Test("100,000 levels of nesting, in a state and in a patch, get too_deep and close 1009; the other session goes on")
    func deepNesting() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let good = try GoodApp(port: harness.port)
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        for frame in [#"{"type":"snapshot","seq":1,"state":\#(nested),"reason":"resync"}"#,
                      #"{"type":"action","seq":1,"time":1,"action":{"type":"x","payload":null},"patch":\#(nested)}"#] {
            try good.record()
            let bad = try DaemonPeer(port: harness.port)
            try bad.hello(AppFrames.hello(name: "deep"))
            try bad.send(frame)
            try bad.expectError(.tooDeep)
            bad.expectClose(1009)
        }
        try good.record()
        try expectIntact(good, harness)
    }

    @Test("a number past the range of Double is bad_json and close 1007; a huge integer is recorded as a double")
    func hugeNumbers() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let good = try GoodApp(port: harness.port)
        try good.record()
        for number in ["1e400", "-1e400"] {
            let bad = try DaemonPeer(port: harness.port)
            try bad.hello(AppFrames.hello(name: "huge"))
            try bad.send(AppFrames.action(seq: 1, patch: #"[{"op":"replace","path":"/count","value":\#(number)}]"#))
            try bad.expectError(.badJSON)
            bad.expectClose(1007)
        }
        let big = try DaemonPeer(port: harness.port)
        let session = try big.hello(AppFrames.hello(name: "big"))
        try big.send(AppFrames.action(seq: 1, patch: #"[{"op":"replace","path":"/count","value":99999999999999999999999}]"#))
        big.expectOpen()
        #expect(try recordedFinalState(harness, session) == ["count": .double(1e23)])
        try good.record()
        try expectIntact(good, harness)
    }

    @Test("duplicate keys: the last one wins, in hello and in action, and nothing else is disturbed")
    func duplicateKeys() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let good = try GoodApp(port: harness.port)
        try good.record()
        let twice = try DaemonPeer(port: harness.port)
        let hello = #"{"type":"hello","protocol":1,"app":{"name":"first","instance":"i1","name":"second"},"#
            + #""state":{"count":0},"state":{"count":7},"capabilities":[]}"#
        let session = try twice.hello(hello)
        try twice.send(#"{"type":"action","seq":9,"seq":1,"time":1,"action":{"type":"a","payload":null},"#
                       + #""patch":[{"op":"replace","path":"/count","value":1}],"patch":[{"op":"replace","path":"/count","value":8}]}"#)
        twice.expectOpen()
        let events = try recordedEvents(harness, session, atLeast: 1)
        #expect(events.map(\.appSeq) == [1])
        #expect(try recordedFinalState(harness, session) == ["count": 8])
        #expect(harness.daemon.sessions.contains { $0.identity.name == "second" })
        // A duplicate type makes a hello an action: the first message must be a hello.
        let retyped = try DaemonPeer(port: harness.port)
        try retyped.send(#"{"type":"hello","protocol":1,"app":{"name":"x","instance":"y"},"state":{},"#
                         + #""type":"action","# + AppFrames.event(seq: 1) + "}")
        try retyped.expectError(.helloRequired)
        retyped.expectClose(1002)
        try good.record()
        try expectIntact(good, harness)
    }

    @Test("a frame claiming 1 GB, then a disconnect: no gigabyte is reserved, and the daemon goes on serving")
    func gigabyteClaim() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let good = try GoodApp(port: harness.port)
        try good.record()
        let resident = ProcessResources.residentBytes
        for subprotocol in [WireProtocol.appSubprotocol, WireProtocol.controlSubprotocol] {
            for _ in 0..<10 {
                let client = try RawWebSocketClient(port: harness.port)
                try client.handshake(subprotocols: [subprotocol])
                if subprotocol == WireProtocol.appSubprotocol { try client.sendText(AppFrames.hello(name: "claim")) }
                try client.sendRaw(RawWebSocketClient.frame(opcode: RawWebSocketClient.Opcode.text,
                                                            payload: Array(#"{"type":"action","seq":1,"#.utf8),
                                                            declaredLength: 1 << 30))
                client.drop()
            }
        }
        // An invalid UTF-8 binary frame of the same app session, for good measure.
        let binary = try DaemonPeer(port: harness.port)
        try binary.hello(AppFrames.hello(name: "binary"))
        try binary.raw.sendFrame(opcode: RawWebSocketClient.Opcode.binary,
                                 payload: Array(#"{"type":"snapshot","seq":1,"state":""#.utf8) + [0xED, 0xA0, 0x80]
                                     + Array(#"","reason":"x"}"#.utf8))
        try binary.expectError(.badUTF8)
        binary.expectClose(1007)
        try good.record()
        try expectIntact(good, harness)
        #expect(ProcessResources.residentBytes < resident + (256 << 20),
                "resident memory grew from \(resident >> 20) MiB to \(ProcessResources.residentBytes >> 20) MiB")
        #expect(ProcessResources.settle(timeout: 10) {
            harness.daemon.sessions.filter(\.isLive).map(\.identity.name) == ["good"]
        })
    }

    @Test("2,000 connections opened and dropped while an app records: every one of its events is in the file")
    func thousandsOfDroppedConnections() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let good = try GoodApp(port: harness.port)
        let descriptors = ProcessResources.openFileDescriptors
        let failures = Failures()
        let done = DispatchGroup()
        let started = Date()
        DispatchQueue.global().async(group: done) {
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for attempt in 0..<500 {
                    do {
                        let client = try RawWebSocketClient(port: harness.port)
                        defer { client.drop() }
                        switch attempt % 4 {
                        case 0: break  // TCP only
                        case 1: try client.handshake()
                        case 2:
                            try client.handshake()
                            // One instance per worker: its session resumes (a new session file per drop would
                            // time the disk, not the daemon).
                            try client.sendText(AppFrames.hello(name: "dropper", instance: "dropper-\(worker)"))
                        default:
                            try client.handshake(subprotocols: [WireProtocol.controlSubprotocol])
                            try client.sendText(#"{"type":"request","id":"1","command":"sessions","args":{}}"#)
                        }
                    } catch {
                        failures.add("worker \(worker) attempt \(attempt): \(error)")
                    }
                }
            }
        }
        while done.wait(timeout: .now()) == .timedOut {
            try good.record(1)
            usleep(5_000)
        }
        let seconds = Date().timeIntervalSince(started)
        print(String(format: "[hardening] 2,000 connections opened and dropped in %.2f s, %d actions recorded meanwhile",
                     seconds, good.seq))
        #expect(seconds < TestTime.seconds(60))
        #expect(failures.entries.isEmpty, "\(failures.entries.prefix(5))")
        try good.record()
        try expectIntact(good, harness)
        #expect(ProcessResources.settle(timeout: 20) {
            harness.daemon.sessions.filter(\.isLive).map(\.identity.name) == ["good"]
        })
        #expect(ProcessResources.settle(timeout: 10) { ProcessResources.openFileDescriptors < descriptors + 60 },
                "\(ProcessResources.openFileDescriptors) descriptors open, \(descriptors) before")
    }

    @Test("an app gone mid-frame ends its session (not left live), and every event it completed reads back")
    func appGoneMidFrame() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let good = try GoodApp(port: harness.port)
        try good.record()
        let app = try DaemonPeer(port: harness.port)
        let session = try app.hello(AppFrames.hello(name: "quitter"))
        try app.send(AppFrames.batch(1...50))
        let half = RawWebSocketClient.frame(opcode: RawWebSocketClient.Opcode.text,
                                            payload: Array(AppFrames.action(seq: 51).utf8))
        try app.raw.sendRaw(Array(half.prefix(half.count / 2)))
        app.raw.drop()
        let id = try SessionID(validating: try #require(session))
        let live = try #require(harness.daemon.session(id))
        #expect(ProcessResources.settle(timeout: 10) { !live.isLive })
        live.flush()
        let reader = try harness.daemon.store.openSession(id)
        #expect(reader.metadata.endState != .live)
        let events = try reader.events(1...reader.eventCount).filter { $0.kind == .action }
        #expect(events.map(\.appSeq) == (1...50).map { Int64($0) })
        #expect(try reader.state(at: reader.eventCount) == ["count": 50])
        try good.record()
        try expectIntact(good, harness)
    }

    @Test("an app's messages beyond the daemon's backlog bound wait in TCP: reading stops and resumes, and a 50,000-event burst arrives whole and in order")
    func backpressure() throws {
        let log = Failures()  // here: the daemon's log lines
        let harness = try DaemonHarness {
            $0.log = { log.add($0) }
            // Tiny, so that reading stops at every frame even when the daemon keeps up (sanitizer builds).
            $0.maxBacklogBytesPerApp = 64
        }
        defer { harness.tearDown() }
        // The ping of `expectOpen` waits behind the whole burst, read a frame at a time: on a loaded machine that
        // takes longer than the peer's default 5 s.
        let app = try DaemonPeer(port: harness.port, timeout: TestTime.seconds(60))
        let session = try SessionID(validating: try #require(try app.hello(AppFrames.hello(name: "firehose"))))
        let frames = stride(from: 1, through: 50_000, by: 500).map { AppFrames.batch($0...($0 + 499)) }
        for frame in frames { try app.send(frame) }
        app.expectOpen()
        let live = try #require(harness.daemon.session(session))
        #expect(ProcessResources.settle(timeout: 60) { live.lastIndex >= 50_000 })
        #expect(log.entries.contains { $0.contains("sends faster than it can be recorded") }, "\(log.entries)")
        live.flush()
        let reader = try harness.daemon.store.openSession(session)
        #expect(reader.eventCount == 50_000)
        let last = try reader.events((reader.eventCount - 2)...reader.eventCount).map(\.appSeq)
        #expect(last == [49_998, 49_999, 50_000])
        #expect(try reader.state(at: reader.eventCount) == ["count": 50_000])
    }

    @Test("rewind serve --max-backlog sets the bound: the daemon says when it stops reading, and the burst arrives whole")
    func backlogFlag() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-backlog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let served = try DaemonProcess(dataDirectory: data, options: ["--max-backlog", "64"], startTimeout: 20)
        let daemon = served.process, port = served.port
        defer { daemon.signal(SIGKILL) }
        let app = try DaemonPeer(port: port)
        let session = try SessionID(validating: try #require(try app.hello(AppFrames.hello(name: "firehose"))))
        for first in stride(from: 1, through: 10_000, by: 500) { try app.send(AppFrames.batch(first...(first + 499))) }
        app.expectOpen()
        #expect(daemon.waitForLine(timeout: 20, stderr: true) { $0.contains("sends faster than it can be recorded") }
                != nil, "stderr: \(daemon.stderrLines)")
        #expect(ProcessResources.settle(timeout: 60) {
            ((try? SessionStore(directory: data).openSession(session))?.eventCount ?? 0) >= 10_000
        })
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0, "stderr: \(daemon.stderrLines)")
        let reader = try SessionStore(directory: data).openSession(session)
        #expect(reader.eventCount == 10_000)
        #expect(try reader.state(at: reader.eventCount) == ["count": 10_000])
    }

    @Test("rewind serve --max-backlog 0 is refused with a message naming the option, before anything starts")
    func backlogFlagRefused() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-backlog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let daemon = try ChildProcess(Executables.path("rewind"), ["serve", "--headless", "--port",
                                                                   String(FreePort.next()), "--data", data.path,
                                                                   "--max-backlog", "0"])
        defer { daemon.signal(SIGKILL) }
        let status = daemon.waitForExit()
        #expect(status != nil && status != 0)
        #expect(daemon.stderrLines.contains { $0.contains("--max-backlog must be at least 1 byte") },
                "stderr: \(daemon.stderrLines)")
        #expect(!FileManager.default.fileExists(atPath: data.path), "nothing was created")
    }

    @Test("under a file-size limit (ulimit -f) the daemon reports the failed writes, keeps serving, and loses no committed event")
    func fileSizeLimit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-full-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = FreePort.next()
        // 1,024 blocks (512 KiB under dash, 1 MiB under bash): room for the first events, not for the big ones.
        let daemon = try ChildProcess("/bin/sh", ["-c", #"ulimit -f 1024; exec "$0" serve --headless --port "$1" --data "$2""#,
                                                  Executables.path("rewind"), String(port), directory.path])
        try #require(daemon.waitForLine(timeout: 20, stderr: true) { $0.contains("listening on") } != nil)
        let app = try DaemonPeer(port: port)
        let session = try SessionID(validating: try #require(try app.hello(AppFrames.hello(name: "filler"))))
        try app.send(AppFrames.batch(1...20))
        app.expectOpen()
        // The first 20 events are committed (read by another process, as `rewind open` would).
        let store = try SessionStore(directory: directory)
        #expect(ProcessResources.settle(timeout: 10) {
            ((try? store.openSession(session))?.eventCount ?? 0) >= 20
        })
        // Then events far past the limit.
        let filler = String(repeating: "x", count: 8_192)
        for seq in 21...400 {
            try app.send(AppFrames.action(seq: seq, patch: #"[{"op":"add","path":"/fill\#(seq)","value":"\#(filler)"}]"#))
        }
        let report = daemon.waitForLine(timeout: 20, stderr: true) { $0.contains("cannot write") }
        #expect(report != nil, "stderr: \(daemon.stderrLines)")
        // Still serving: the app's connection, a new app and a control client.
        app.expectOpen()
        let other = try DaemonPeer(port: port)
        #expect(try other.hello(AppFrames.hello(name: "other")) != nil)
        let control = try DaemonPeer(port: port, subprotocol: WireProtocol.controlSubprotocol)
        try control.request("1", "sessions")
        _ = try control.expectSuccess("1")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() != nil, "the daemon did not stop")
        // Nothing committed was lost.
        let reader = try store.openSession(session)
        #expect(reader.eventCount >= 20)
        let actions = try reader.events(1...reader.eventCount).filter { $0.kind == .action }.map(\.appSeq)
        #expect(Array(actions.prefix(20)) == (1...20).map { Int64($0) })
        #expect(actions == (1...Int64(actions.count)).map { $0 }, "the events read back have a gap")
        #expect(try reader.state(at: reader.eventCount)["count"] == 20)
    }

    @Test("a data directory that becomes unwritable: new sessions get a clear error, the daemon keeps serving, recorded sessions lose nothing")
    func unwritableDataDirectory() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-gone-\(UUID().uuidString)")
        let directory = base.appendingPathComponent("sessions"), moved = base.appendingPathComponent("moved")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let served = try DaemonProcess(dataDirectory: directory, startTimeout: 20)
        let daemon = served.process, port = served.port
        defer { daemon.signal(SIGKILL) }
        let first = try DaemonPeer(port: port)
        let session = try SessionID(validating: try #require(try first.hello(AppFrames.hello(name: "before"))))
        try first.send(AppFrames.batch(1...20))
        #expect(ProcessResources.settle(timeout: 10) {
            ((try? SessionStore(directory: directory).openSession(session))?.eventCount ?? 0) >= 20
        })

        // The data directory goes away and a regular file takes its name: nothing can be created under it, not
        // even by root (ENOTDIR). The open session's file moved with its directory and stays open.
        try FileManager.default.moveItem(at: directory, to: moved)
        try Data("not a directory".utf8).write(to: directory)

        let second = try DaemonPeer(port: port)
        try second.send(AppFrames.hello(name: "after"))
        let message = try second.expectError(.internal)
        #expect(message.contains("cannot record"), "\(message)")
        let report = daemon.waitForLine(timeout: 10, stderr: true) { $0.contains("cannot record after") }
        #expect(report?.contains(directory.path) == true, "stderr: \(daemon.stderrLines)")

        // Still serving: the first app goes on recording, control clients are answered.
        try first.send(AppFrames.batch(21...40))
        first.expectOpen()
        let control = try DaemonPeer(port: port, subprotocol: WireProtocol.controlSubprotocol)
        try control.request("1", "sessions")
        _ = try control.expectSuccess("1")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0, "stderr: \(daemon.stderrLines)")

        // Nothing was lost: the first session holds all 40 actions, in its directory's new place.
        let reader = try SessionStore(directory: moved).openSession(session)
        let actions = try reader.events(1...reader.eventCount).filter { $0.kind == .action }.map(\.appSeq)
        #expect(actions == (1...40).map { Int64($0) })
        #expect(try reader.state(at: reader.eventCount) == ["count": 40])
    }
}

/// Failures collected from several threads.
private final class Failures: @unchecked Sendable {  // `list` is guarded by `lock`
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ entry: String) {
        lock.lock()
        list.append(entry)
        lock.unlock()
    }

    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}
