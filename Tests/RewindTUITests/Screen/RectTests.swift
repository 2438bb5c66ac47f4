import Testing
import RewindTUI

@Suite("Rectangles")
struct RectTests {
    @Test("slicing keeps rows and columns inside the rectangle")
    func slicing() {
        let rect = Rect(row: 2, column: 3, width: 10, height: 6)
        #expect(rect.top(2) == Rect(row: 2, column: 3, width: 10, height: 2))
        #expect(rect.bottom(2) == Rect(row: 6, column: 3, width: 10, height: 2))
        #expect(rect.droppingTop(2) == Rect(row: 4, column: 3, width: 10, height: 4))
        #expect(rect.droppingBottom(9).height == 0)
        #expect(rect.insetHorizontally(2) == Rect(row: 2, column: 5, width: 6, height: 6))
        #expect(Rect(row: 0, column: 0, width: -3, height: 2).isEmpty)
    }
}
