import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The inspector's memory bound as a user would check it: a `stress` app bursts actions as fast as it can against a
/// real `rewind serve`, and its peak resident memory (the kernel's figure, `ru_maxrss`) is compared with the same
/// burst run with `REWIND_DISABLED=1`. What the inspector adds stays within the budget plus 32 MiB, whatever the
/// state's size or growth; and every action is accounted for (with its state, without it, or counted lost).
@Suite("Inspector memory bound: peak resident memory added ≤ budget + 32 MiB", .serialized)
struct InspectorMemoryBoundTests {
    /// The default budget (`REWIND_OUTBOX_BYTES` unset).
    static let budget = 64 << 20
    /// The documented fixed overhead.
    static let overhead = 32 << 20

    /// The bursts: a state of 1 kB, 100 kB and 1 MB changed one field at a time, and a state that grows (appends,
    /// removals, writes of 200-byte texts, from 1 kB).
    static let bursts: [(name: String, arguments: [String])] = [
        ("1 kB", ["--state-bytes", "1000", "--mix", "touch"]),
        ("100 kB", ["--state-bytes", "100000", "--mix", "touch"]),
        ("1 MB", ["--state-bytes", "1000000", "--mix", "touch"]),
        ("growing", ["--state-bytes", "1000", "--mix", "mixed", "--change-bytes", "200"]),
    ]

    /// Actions per burst: fewer under a sanitizer, which slows everything down alike.
    static var count: Int { 300_000 / Int(TestTime.scale) }

    private func run(_ arguments: [String], environment: [String: String]) throws -> JSONValue {
        let app = try ChildProcess(Executables.path("stress"),
                                   ["--count", "\(Self.count)", "--deliver-timeout", "\(TestTime.seconds(120))"]
                                       + arguments,
                                   environment: environment)
        #expect(app.waitForExit(timeout: TestTime.seconds(240)) == 0, "stress: \(app.stderrLines.suffix(3))")
        return try JSONValue(parsing: try #require(app.stderrLines.last { $0.hasPrefix("{") }))
    }

    private func number(_ report: JSONValue, _ key: String) -> Int {
        Int(report[try! JSONPointer("/\(key)")]?.int64Value ?? -1)
    }

    @Test("a burst as fast as the app can dispatch", arguments: bursts.map(\.name))
    func burst(_ name: String) throws {
        let arguments = try #require(Self.bursts.first { $0.name == name }).arguments
        let daemon = try DaemonProcess()
        defer { daemon.tearDown() }
        let bare = try run(arguments, environment: ["REWIND_DISABLED": "1"])
        let inspected = try run(arguments, environment: ["REWIND_URL": daemon.url])

        let added = number(inspected, "maxRSSKiB") - number(bare, "maxRSSKiB")
        let allowed = (Self.budget + Self.overhead) / 1024
        print("[memory] \(name): peak \(number(inspected, "maxRSSKiB")) KiB inspected, \(number(bare, "maxRSSKiB")) "
              + "KiB bare: \(added) KiB added (allowed \(allowed) KiB); with state \(number(inspected, "withState")), "
              + "without \(number(inspected, "withoutState")), lost \(number(inspected, "lost"))")
        // AddressSanitizer's quarantine keeps freed memory on purpose: under a sanitizer the figure is printed only.
        if TestTime.scale == 1 {
            #expect(added <= allowed, "\(added) KiB added, allowed \(allowed) KiB")
        }
        #expect(inspected[try JSONPointer("/handedOver")] == .bool(true))
        #expect(number(inspected, "withState") + number(inspected, "withoutState") + number(inspected, "lost")
                == Self.count, "every action accounted for")
        // The record says the same: every action recorded once, or counted in a `lost` row.
        let session = try #require(try daemon.sessions(app: "stress").first)
        let reader = try SessionStore(directory: daemon.dataDirectory).openSession(session.id)
        let events = try reader.events(1...reader.eventCount)
        let lostInRecord = events.filter { $0.kind == .dropped && $0.label == "lost" }
            .reduce(0) { $0 + Int($1.action?["actionsLost"]?.int64Value ?? 0) }
        #expect(lostInRecord == number(inspected, "lost"))
        #expect(events.filter { $0.kind == .action }.count + lostInRecord == Self.count)
    }
}
