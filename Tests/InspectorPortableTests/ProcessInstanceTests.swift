import Foundation
import RewindInspector
import Testing

/// `Inspector.processInstance`: `host:pid:startMillis` (docs/PROTOCOL.md), from calls that never block.
@Suite("Inspector.processInstance")
struct ProcessInstanceTests {
    @Test("is host:pid:startMillis, the host being the kernel's host name and the pid this process's")
    func format() throws {
        let fields = Inspector.processInstance.split(separator: ":", omittingEmptySubsequences: false)
        try #require(fields.count == 3, "\(Inspector.processInstance)")
        var name = [CChar](repeating: 0, count: 256)
        try #require(gethostname(&name, name.count - 1) == 0)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(fields[0] == host.replacingOccurrences(of: ":", with: "_"))
        #expect(Int32(fields[1]) == getpid())
        let started = try #require(Int(fields[2]))
        let now = Int(Date().timeIntervalSince1970 * 1000)
        #expect(started <= now && started > now - 24 * 3_600_000)
    }

    @Test("stays the same for the life of the process")
    func stable() {
        #expect(Inspector.processInstance == Inspector.processInstance)
    }
}
