import Testing
import RewindTUI

@Suite("Key decoding")
struct KeyTests {
    @Test("characters, control letters and special characters from wget_wch OK")
    func wideCharacters() {
        #expect(Key(wideCharacter: 0x6A) == .character("j"))
        #expect(Key(wideCharacter: 0x4E2D) == .character("中"))
        #expect(Key(wideCharacter: 3) == .control("c"))
        #expect(Key(wideCharacter: 12) == .control("l"))
        #expect(Key(wideCharacter: 9) == .tab)
        #expect(Key(wideCharacter: 13) == .enter)
        #expect(Key(wideCharacter: 10) == .enter)
        #expect(Key(wideCharacter: 27) == .escape)
        #expect(Key(wideCharacter: 127) == .backspace)
        #expect(Key(wideCharacter: 8) == .backspace)
    }

    @Test("ncurses KEY_* codes from wget_wch KEY_CODE_YES")
    func keyCodes() {
        #expect(Key(keyCode: 0o402) == .down)
        #expect(Key(keyCode: 0o403) == .up)
        #expect(Key(keyCode: 0o522) == .pageDown)
        #expect(Key(keyCode: 0o523) == .pageUp)
        #expect(Key(keyCode: 0o406) == .home)
        #expect(Key(keyCode: 0o550) == .end)
        #expect(Key(keyCode: 0o552) == .home)
        #expect(Key(keyCode: 0o601) == .end)
        #expect(Key(keyCode: 0o541) == .backTab)
        #expect(Key(keyCode: 0o632) == .resize)
        #expect(Key(keyCode: 0o411) == .function(1))
        #expect(Key(keyCode: 0o777) == .unknown(0o777))
    }
}
