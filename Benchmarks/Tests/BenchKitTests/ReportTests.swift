import BenchKit
import Foundation
import Testing

@Suite("Report")
struct ReportTests {
    @Test("quantities print in the unit that fits, with three significant digits")
    func formatting() {
        #expect(Quantity.nanoseconds(42).description == "42.0 ns")
        #expect(Quantity.nanoseconds(312).description == "0.312 µs")
        #expect(Quantity.nanoseconds(4_870_000).description == "4.87 ms")
        #expect(Quantity.nanoseconds(2_500_000_000).description == "2.50 s")
        #expect(Quantity.bytes(183).description == "183 B")
        #expect(Quantity.bytes(145_600_000).description == "145.6 MB")
        #expect(Quantity.rate(312_000, unit: "events/s").description == "312,000 events/s")
        #expect(Quantity.factor(7.21).description == "7.2×")
        #expect(Quantity.factor(15_234.4).description == "15,234×")
    }

    @Test("a row checks its value against its target unless told otherwise")
    func verdicts() {
        let fast = ReportRow("seek", .nanoseconds(4_000_000), target: .atMost(nanoseconds: 20_000_000))
        let slow = ReportRow("seek", .nanoseconds(40_000_000), target: .atMost(nanoseconds: 20_000_000))
        let rate = ReportRow("ingest", .rate(150_000, unit: "events/s"), target: Target(.atLeast, 200_000, "≥ 200,000"))
        let forced = ReportRow("flat", .text("a, b"), target: Target(.atMost, 0, "flat"), met: true)
        let untargeted = ReportRow("info", .nanoseconds(1))
        #expect(fast.met == true)
        #expect(slow.met == false)
        #expect(rate.met == false)
        #expect(forced.met == true)
        #expect(untargeted.met == nil)
        #expect(slow.verdict.contains("missed"))
    }

    @Test("the Markdown names every missed target in the summary and in its area's table")
    func markdown() {
        var area = AreaReport(title: "Seek", method: "How.", rows: [
            ReportRow("seek p99", .nanoseconds(40_000_000), target: .atMost(nanoseconds: 20_000_000),
                      baseline: "replay: 2 s", ratio: "50× faster"),
            ReportRow("step", .nanoseconds(100_000)),
        ])
        area.othersShare = 0.25
        area.ownShare = 0.5
        let report = BenchmarkReport(
            command: "make bench", quick: false, date: Date(timeIntervalSince1970: 0),
            machine: MachineInfo(cpuModel: "Test CPU", processors: 2, memoryBytes: 1e9, kernel: "6.0",
                                 loadAverage: 1),
            loadAverageAtEnd: 2, toolchain: "Swift", areas: [area], seconds: 1)
        let text = report.markdown()
        #expect(text.contains("**1 of 1 targets missed:** seek p99 (40.0 ms, target ≤ 20 ms)"))
        #expect(text.contains("| seek p99 | 40.0 ms | ≤ 20 ms | replay: 2 s | 50× faster | **NO — missed** |"))
        #expect(text.contains("Test CPU, 2 processors"))
        #expect(!text.contains("Quick mode"))
        #expect(text.contains("while each area ran (the machine is shared; figures move with it): Seek 25 %."))
        #expect(text.contains("the benchmark used 50 % and other processes 25 % of the machine's 2 processors"))
    }
}
