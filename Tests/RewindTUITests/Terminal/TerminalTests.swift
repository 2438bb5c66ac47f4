import Foundation
import Testing
import RewindTUI

/// ncurses keeps global state: these run one at a time, on terminals whose input and output are /dev/null.
@Suite("Terminal and painter (ncurses on /dev/null)", .serialized)
struct TerminalTests {
    @discardableResult
    private func withDevNull<T>(_ body: (Int32) throws -> T) rethrows -> T {
        let descriptor = open("/dev/null", O_RDWR)
        defer { close(descriptor) }
        return try body(descriptor)
    }

    @Test("an unknown or unusable TERM is a clear error, not an exit of the process")
    func badTerm() {
        withDevNull { null in
            #expect(throws: TerminalError.badTerm("no-such-terminal-xyz")) {
                try Terminal(termName: "no-such-terminal-xyz", inputDescriptor: null, outputDescriptor: null,
                             colorMode: .colors)
            }
        }
        withDevNull { null in
            #expect(throws: TerminalError.badTerm("dumb"), "a terminal without cursor addressing") {
                try Terminal(termName: "dumb", inputDescriptor: null, outputDescriptor: null, colorMode: .colors)
            }
        }
        let message = TerminalError.badTerm("no-such-terminal-xyz").description
        #expect(message.contains("'no-such-terminal-xyz'") && message.contains("TERM=xterm-256color"))
    }

    @Test("a missing TERM is a clear error")
    func missingTerm() {
        #expect(throws: TerminalError.missingTerm) {
            try Terminal.open(environment: [:], requireInteractive: false)
        }
        #expect(throws: TerminalError.missingTerm) {
            try Terminal.open(environment: ["TERM": ""], requireInteractive: false)
        }
    }

    @Test("without a terminal on stdin/stdout, open refuses and says to run headless")
    func notInteractive() throws {
        try #require(!Terminal.isInteractive, "the test runner has a terminal; nothing to check")
        #expect(throws: TerminalError.notATerminal) {
            try Terminal.open(environment: ["TERM": "xterm-256color"])
        }
        #expect(TerminalError.notATerminal.description.contains("serve --headless"))
    }

    @Test("the painter puts every cell where the buffer has it, wide characters included")
    func paints() throws {
        try withDevNull { null in
            let terminal = try Terminal(termName: "xterm-256color", inputDescriptor: null, outputDescriptor: null,
                                        colorMode: .colors)
            defer { terminal.close() }
            #expect(terminal.painter.colorMode == .colors)
            let (width, height) = terminal.size
            var buffer = ScreenBuffer(width: width, height: height)
            buffer.put("rewind 中文 😀 café", row: 0, column: 0, style: CellStyle(foreground: .green, bold: true))
            buffer.put("→ ▾ │ …", row: 1, column: 2, style: Theme.selection)
            buffer.put("bottom-right", row: height - 1, column: width - 12)
            terminal.painter.paint(buffer)
            var lines = terminal.screenLines()
            #expect(lines[0].hasPrefix("rewind 中文 😀 café"))
            #expect(lines[1].hasPrefix("  → ▾ │ …"))
            #expect(lines[height - 1].hasSuffix("bottom-right"))
            // Only changes are painted, and what changed shows up.
            buffer.put("中", row: 0, column: 7)
            buffer.put("x", row: 0, column: 9)
            terminal.painter.paint(buffer)
            lines = terminal.screenLines()
            #expect(lines[0].hasPrefix("rewind 中x  😀 café"), "the orphaned half of 文 is blank")
            // A new size repaints everything.
            var small = ScreenBuffer(width: width, height: height)
            small.put("fresh", row: 3, column: 0)
            terminal.painter.invalidate()
            terminal.painter.paint(small)
            lines = terminal.screenLines()
            #expect(lines[0].allSatisfy { $0 == " " })
            #expect(lines[3].hasPrefix("fresh"))
        }
    }

    @Test("a terminal without colours, or NO_COLOR, paints in monochrome")
    func monochrome() throws {
        try withDevNull { null in
            let vt100 = try Terminal(termName: "vt100", inputDescriptor: null, outputDescriptor: null, colorMode: .colors)
            #expect(vt100.painter.colorMode == .monochrome)
            vt100.close()
            let xterm = try Terminal(termName: "xterm-256color", inputDescriptor: null, outputDescriptor: null,
                                     colorMode: .preferred(environment: ["NO_COLOR": "1"]))
            #expect(xterm.painter.colorMode == .monochrome)
            xterm.close()
        }
        #expect(ColorMode.preferred(environment: ["NO_COLOR": ""]) == .colors)
        #expect(ColorMode.preferred(environment: [:]) == .colors)
    }
}
