import Foundation
import Testing
import RewindTUI
import RewindTestSupport

/// Figures, printed rather than asserted tightly (debug builds and a shared CI machine vary); the assertions
/// only catch what would be a design error (reading the whole session, frames taking a large part of a second).
@Suite("Performance and laziness")
struct PerformanceTests {
    private static func milliseconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    @Test("a 1,000,000-event session opens to its first screen reading only the rows on it")
    func lazyOpen() {
        let source = SyntheticTimelineSource(count: 1_000_000)
        let app = TimelineApp(dataSource: source, actions: NoActions(), initialSession: "big", environment: [:])
        var frame = ScreenBuffer(width: 0, height: 0)
        let elapsed = Self.milliseconds { frame = app.renderFrame(width: 200, height: 60) }
        print("first 200×60 frame of a 1,000,000-event session: \(String(format: "%.2f", elapsed)) ms "
              + "(\(source.rowsRead) rows, \(source.detailReads) detail, \(source.stateReads) state reads)")
        #expect(frame.text.contains("1,000,000 events"))
        #expect(frame.lines[5].hasPrefix("       0     +0.000s   initial state"))
        #expect(source.rowsRead <= 60)
        #expect(source.stateReads <= 1)
        #expect(elapsed < TestTime.seconds(0.5) * 1_000)
        app.handle(.character("G"))
        let before = source.rowsRead
        let end = app.renderFrame(width: 200, height: 60)
        #expect(end.text.contains("1000000 "))
        #expect(source.rowsRead - before <= 60)
    }

    @Test("rendering a full 200×60 frame from the model")
    func renderTime() {
        let source = SyntheticTimelineSource(count: 1_000_000)
        let app = TimelineApp(dataSource: source, actions: NoActions(), initialSession: "big", environment: [:])
        app.handle(.character("3"))  // the State tab: the largest detail
        app.handle(.character("G"))
        _ = app.renderFrame(width: 200, height: 60)
        let frames = 200
        let steady = Self.milliseconds {
            for _ in 0..<frames { _ = app.renderFrame(width: 200, height: 60) }
        } / Double(frames)
        let moving = Self.milliseconds {
            for step in 0..<frames {
                app.handle(step % 2 == 0 ? .up : .down)
                _ = app.renderFrame(width: 200, height: 60)
            }
        } / Double(frames)
        print("200×60 frame: \(String(format: "%.3f", steady)) ms unchanged selection, "
              + "\(String(format: "%.3f", moving)) ms moving the cursor (State tab rebuilt each frame)")
        #expect(steady < TestTime.seconds(0.1) * 1_000)
        #expect(moving < TestTime.seconds(0.2) * 1_000)
    }
}
