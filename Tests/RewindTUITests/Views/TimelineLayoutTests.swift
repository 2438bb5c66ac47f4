import Testing
import RewindTUI

@Suite("Layout")
struct TimelineLayoutTests {
    @Test("at 80×24 the panes are stacked: sessions, timeline, detail, between header and footer")
    func small() {
        let layout = TimelineLayout(width: 80, height: 24, sessionCount: 2, hasStatusLine: false)
        #expect(!layout.isWide && !layout.isTooSmall)
        #expect(layout.header == Rect(row: 0, column: 0, width: 80, height: 1))
        #expect(layout.sessions == Rect(row: 1, column: 0, width: 80, height: 3))
        #expect(layout.timeline.row == 4 && layout.timeline.width == 80)
        #expect(layout.detail.row == layout.timeline.bottom && layout.detail.bottom == 23)
        #expect(layout.footer == Rect(row: 23, column: 0, width: 80, height: 1))
        #expect(layout.status.height == 0)
        #expect(layout.timelineRows >= 8)
        #expect(layout.detailRows >= 5)
    }

    @Test("at 200×60 the detail pane takes the right side at full height")
    func large() {
        let layout = TimelineLayout(width: 200, height: 60, sessionCount: 3, hasStatusLine: true)
        #expect(layout.isWide)
        #expect(layout.sessions == Rect(row: 1, column: 0, width: 92, height: 4))
        #expect(layout.timeline == Rect(row: 5, column: 0, width: 92, height: 53))
        #expect(layout.separator == Rect(row: 1, column: 92, width: 1, height: 57))
        #expect(layout.detail == Rect(row: 1, column: 93, width: 107, height: 57))
        #expect(layout.status == Rect(row: 58, column: 0, width: 200, height: 1))
        #expect(layout.footer.row == 59)
    }

    @Test("many sessions do not squeeze the timeline out")
    func manySessions() {
        let layout = TimelineLayout(width: 80, height: 24, sessionCount: 50, hasStatusLine: true)
        #expect(layout.sessions.height <= 5)
        #expect(layout.timelineRows >= 6)
    }

    @Test("below 40×10 the screen is too small")
    func tooSmall() {
        #expect(TimelineLayout(width: 39, height: 24, sessionCount: 1, hasStatusLine: false).isTooSmall)
        #expect(TimelineLayout(width: 80, height: 9, sessionCount: 1, hasStatusLine: false).isTooSmall)
    }
}
