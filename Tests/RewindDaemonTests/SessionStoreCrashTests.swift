import Foundation
import RewindTestSupport
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

/// A real crash: a child process (this test binary, running only `crashChildRecordsUntilKilled`) records a
/// session, flushes part of it, keeps appending, and is killed with SIGKILL.
@Suite("Crash recovery")
struct SessionStoreCrashTests {
    static let childVariable = "REWIND_STORE_CRASH_CHILD_DIR"
    static let marker = "REWIND-CRASH-CHILD"
    static let seed: UInt64 = 99
    static let flushed = 500
    static let unflushed = 100

    @Test("child process of the crash test: records until killed (does nothing unless started by it)")
    func crashChildRecordsUntilKilled() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let store = try SessionStore(directory: URL(fileURLWithPath: path), options: RecordingOptions(keyframeInterval: 64))
        var app = SyntheticApp()
        var random = SeededGenerator(seed: Self.seed)
        let recording = try store.createSession(appName: "crash", protocolVersion: 1, initialState: app.state)
        recordSynthetic(Self.flushed, into: recording, app: &app, random: &random)
        recording.flush()
        FileHandle.standardOutput.write(Data("\n\(Self.marker) \(recording.id) \(recording.committedIndex)\n".utf8))
        recordSynthetic(Self.unflushed, into: recording, app: &app, random: &random, startTime: 1_900_000_000)
        // Wait for SIGKILL; the parent kills well before this ends.
        for _ in 0..<Int(TestTime.seconds(600)) { usleep(100_000) }
        withExtendedLifetime(recording) {}
    }

    @Test("a recorder killed with SIGKILL keeps every committed event; the session reads as interrupted and is repaired",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe")))
    func killNine() throws {
        let directory = TemporaryDirectory()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "crashChildRecordsUntilKilled"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = directory.url.path
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        let pid = child.processIdentifier
        // A watchdog, so that a child that never reports cannot hang the suite.
        DispatchQueue.global().asyncAfter(deadline: .now() + TestTime.seconds(60)) { kill(pid, SIGKILL) }

        var text = ""
        var report: [Substring]?
        while report == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            report = text.split(separator: "\n").first { $0.hasPrefix(Self.marker) }?.split(separator: " ")
        }
        kill(pid, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        let fields = try #require(report, "the child reported nothing: \(text)")
        let id = try SessionID(validating: String(fields[1]))
        let committed = try #require(Int64(fields[2]))
        #expect(committed == Int64(Self.flushed))

        var app = SyntheticApp()
        var random = SeededGenerator(seed: Self.seed)
        var expected = [app.state]
        for _ in 0..<(Self.flushed + Self.unflushed) { expected.append(app.step(using: &random).stateAfter) }

        let store = try SessionStore(directory: directory.url)
        let listed = try store.listSessions()
        #expect(listed.map(\.id) == [id])
        #expect(listed.first?.endState == .interrupted, "a live session whose recorder died reads as interrupted")
        let reader = try store.openSession(id)
        let count = reader.eventCount
        #expect(count >= committed, "every committed event survives")
        #expect(count <= Int64(Self.flushed + Self.unflushed))
        #expect(try reader.events(1...count).map(\.index) == Array(1...count))
        #expect(try reader.state(at: count) == expected[Int(count)])
        #expect(try reader.state(at: committed) == expected[Int(committed)])
        #expect(reader.metadata.endedAt == reader.metadata.lastEventAt)

        #expect(try store.recoverInterrupted() == [id])
        #expect(try store.recoverInterrupted() == [], "the repair is stored")
        let repaired = try store.openSession(id)
        #expect(repaired.metadata.endState == .interrupted)
        #expect(repaired.metadata.endedAt == repaired.metadata.lastEventAt)
        #expect(repaired.eventCount == count)
        #expect(try repaired.state(at: count) == expected[Int(count)])
    }
}
