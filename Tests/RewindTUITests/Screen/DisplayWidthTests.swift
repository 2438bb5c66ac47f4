import Testing
import RewindTUI

@Suite("Display width")
struct DisplayWidthTests {
    @Test("ASCII letters, digits and punctuation are one column each")
    func ascii() {
        #expect(DisplayWidth.of("todo/add 42!") == 12)
        #expect(DisplayWidth.of(Character("a")) == 1)
    }

    @Test("CJK ideographs, kana, Hangul and fullwidth forms are two columns")
    func eastAsianWide() {
        #expect(DisplayWidth.of(Character("中")) == 2)
        #expect(DisplayWidth.of(Character("カ")) == 2)
        #expect(DisplayWidth.of(Character("한")) == 2)
        #expect(DisplayWidth.of(Character("Ａ")) == 2)
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("a中b") == 4)
    }

    @Test("emoji with emoji presentation are two columns, also with modifiers or joined")
    func emoji() {
        #expect(DisplayWidth.of(Character("😀")) == 2)
        #expect(DisplayWidth.of(Character("👍🏽")) == 2)
        #expect(DisplayWidth.of(Character("👨‍👩‍👧")) == 2)
        #expect(DisplayWidth.of(Character("⌚")) == 2)
    }

    @Test("combining marks add nothing to their base character")
    func combining() {
        #expect(DisplayWidth.of(Character("e\u{301}")) == 1)
        #expect(DisplayWidth.of("cafe\u{301}") == 4)
        #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x200D)!) == 0)  // zero-width joiner
        #expect(DisplayWidth.of(Unicode.Scalar(0xFE0F)!) == 0)  // variation selector
    }

    @Test("ambiguous-width symbols used by the UI are one column")
    func ambiguousNarrow() {
        for symbol in ["…", "→", "▾", "▸", "│", "─", "●", "▁", "█", "µ"] {
            #expect(DisplayWidth.of(symbol) == 1, "\(symbol)")
        }
    }

    @Test("control characters have no width")
    func controls() {
        #expect(DisplayWidth.of("\u{1B}[31m") == 4)  // ESC counts 0, "[31m" 4
        #expect(DisplayWidth.of(Unicode.Scalar(0x07)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x85)!) == 0)
    }
}
