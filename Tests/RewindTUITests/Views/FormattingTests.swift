import Testing
import RewindTUI

@Suite("Formatting")
struct FormattingTests {
    @Test("numbers are grouped by thousands")
    func grouped() {
        #expect(Formatting.grouped(0) == "0")
        #expect(Formatting.grouped(999) == "999")
        #expect(Formatting.grouped(1_000) == "1,000")
        #expect(Formatting.grouped(1_234_567) == "1,234,567")
        #expect(Formatting.grouped(-12_345) == "-12,345")
    }

    @Test("relative times grow from seconds to minutes to hours")
    func relative() {
        #expect(Formatting.relativeTime(0) == "+0.000s")
        #expect(Formatting.relativeTime(12.3456) == "+12.346s")
        #expect(Formatting.relativeTime(184.5) == "+3:04.500")
        #expect(Formatting.relativeTime(3723) == "+1:02:03")
        #expect(Formatting.relativeTime(-1.5) == "-1.500s")
    }

    @Test("reducer durations pick a readable unit")
    func durations() {
        #expect(Formatting.duration(micros: 0.85) == "850ns")
        #expect(Formatting.duration(micros: 12.4) == "12µs")
        #expect(Formatting.duration(micros: 1234) == "1.2ms")
        #expect(Formatting.duration(micros: 340_000) == "340ms")
        #expect(Formatting.duration(micros: 1_500_000) == "1.5s")
    }

    @Test("rates are shortened")
    func rates() {
        #expect(Formatting.rate(950) == "950/s")
        #expect(Formatting.rate(12_345) == "12.3k/s")
        #expect(Formatting.rate(1_200_000) == "1.2M/s")
    }

    @Test("the sparkline scales to its largest sample and shows zero as blank")
    func sparkline() {
        #expect(Sparkline.render([0, 1, 2, 4, 8], width: 5) == " ▁▂▄█")
        #expect(Sparkline.render([5, 5], width: 4) == "  ██")
        #expect(Sparkline.render([1, 2, 3, 4, 5, 6, 7, 8], width: 3) == "▆▇█")
        #expect(Sparkline.render([], width: 3) == "   ")
    }

    @Test("times and durations far outside any sensible range are shown without trapping (stored by older versions)",
          arguments: [1e19, 1e300, -1e300, Double.infinity, -Double.infinity, Double.nan, 9.3e18, -9.3e18])
    func hostileNumbers(value: Double) {
        #expect(!Formatting.relativeTime(value).isEmpty)
        #expect(!Formatting.clockTime(value).isEmpty)
        #expect(!Formatting.dateTime(value).isEmpty)
        #expect(!Formatting.duration(micros: value).isEmpty)
        #expect(!Formatting.rate(value).isEmpty)
        #expect(Sparkline.render([value, 1, value], width: 3).count == 3)
    }

    @Test("a time past the year 9999 is shown as the last second of 9999")
    func clampedDate() {
        #expect(Formatting.dateTime(1e300).hasPrefix("9999-12-3") || Formatting.dateTime(1e300).hasPrefix("10000-01-01"))
    }
}
