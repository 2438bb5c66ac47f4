import Testing
import RewindTUI

@Suite("The value plot's columns")
struct HistoryPlotColumnsTests {
    @Test("with fewer changes than columns, one column per change, oldest left, newest right")
    func oneColumnPerChange() {
        let events = [11, 8, 7, 6, 5, 4, 3, 2, 1]  // newest first, as the history cursor holds them
        let columns = HistoryPlotColumns(changeCount: events.count, width: 40)
        #expect(columns.count == 9)
        #expect(columns.sampledEvents(events) == events.reversed())
        #expect(columns.column(ofPosition: 0) == 8, "the newest change is the rightmost column")
        #expect(columns.column(ofPosition: 8) == 0)
    }

    @Test("with more changes than columns, each column stands for a run and shows its newest change")
    func runsOfChanges() {
        let events = Array((1...1_000_000).reversed())
        let columns = HistoryPlotColumns(changeCount: events.count, width: 60)
        #expect(columns.count == 60)
        let sampled = columns.sampledEvents(events)
        #expect(sampled.count == 60)
        #expect(sampled.last == 1_000_000, "the last column shows the newest change")
        #expect(sampled == sampled.sorted(), "left to right, oldest to newest")
        for column in 0..<columns.count {
            #expect(columns.column(ofPosition: columns.sampledPosition(ofColumn: column)) == column)
        }
        #expect(columns.column(ofPosition: events.count - 1) == 0, "the oldest change is in the first column")
    }
}
