import Testing
import RewindTUI

@Suite("Line editor")
struct LineEditorTests {
    @Test("typing inserts at the cursor; arrows, Home and End move it")
    func editing() {
        var editor = LineEditor("ac")
        _ = editor.handle(.left)
        _ = editor.handle(.character("b"))
        #expect(editor.text == "abc" && editor.cursor == 2)
        _ = editor.handle(.home)
        _ = editor.handle(.character(">"))
        _ = editor.handle(.end)
        _ = editor.handle(.character("<"))
        #expect(editor.text == ">abc<")
    }

    @Test("Backspace, Delete, Ctrl-U, Ctrl-K and Ctrl-W erase")
    func erasing() {
        var editor = LineEditor("one two three")
        _ = editor.handle(.control("w"))
        #expect(editor.text == "one two ")
        _ = editor.handle(.backspace)
        #expect(editor.text == "one two")
        _ = editor.handle(.home)
        _ = editor.handle(.delete)
        #expect(editor.text == "ne two")
        _ = editor.handle(.right)
        _ = editor.handle(.control("k"))
        #expect(editor.text == "n")
        _ = editor.handle(.control("u"))
        #expect(editor.text.isEmpty && editor.cursor == 0)
    }

    @Test("Enter and Escape are not editing keys")
    func nonEditing() {
        var editor = LineEditor()
        let enter = editor.handle(.enter)
        let escape = editor.handle(.escape)
        #expect(!enter && !escape)
    }
}
