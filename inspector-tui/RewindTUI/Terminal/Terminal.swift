import CNCurses
import Foundation

/// The terminal, taken over through ncurses for the live timeline, and given back intact.
///
/// `open` sets the locale (UTF-8), starts ncurses with `newterm` (never `initscr`, which exits the process on a
/// bad `TERM`), switches to raw keys without echo and hides the cursor. `close` restores the terminal; so does
/// SIGINT, SIGTERM or SIGHUP, which only set `terminationRequested` so that the owner's loop ends and closes
/// normally. Ctrl-C typed at the keyboard arrives as `Key.control("c")` (raw mode), not as a signal.
///
/// Threading: ncurses is not thread-safe. Open, read keys, paint and close on one thread (the UI thread).
/// `terminationRequested` may be read from that thread; the signal handlers run on a private queue and only set it.
package final class Terminal {
    /// Whether standard input and output are both terminals, i.e. whether the live timeline can run at all.
    /// When false, the caller should run headless and say so.
    package static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let output: UnsafeMutablePointer<FILE>
    private let input: UnsafeMutablePointer<FILE>
    private let signals: TerminationSignals
    private var isClosed = false

    /// Paints frames onto this terminal.
    package let painter: ScreenPainter

    /// Takes over the terminal on standard input/output.
    /// - Parameters:
    ///   - environment: where `TERM` and `NO_COLOR` are read (the process environment by default).
    ///   - requireInteractive: check `isInteractive` first (tests of the error paths turn this off).
    /// - Throws: `TerminalError` with a message fit to print, when stdin/stdout is not a terminal, `TERM` is
    ///   missing, or terminfo cannot drive the terminal type.
    package static func open(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        requireInteractive: Bool = true
    ) throws(TerminalError) -> Terminal {
        if requireInteractive && !isInteractive { throw .notATerminal }
        guard let name = environment["TERM"], !name.isEmpty else { throw .missingTerm }
        return try Terminal(termName: name, inputDescriptor: STDIN_FILENO, outputDescriptor: STDOUT_FILENO,
                            colorMode: .preferred(environment: environment))
    }

    /// Starts ncurses for terminal type `termName` on the given file descriptors (duplicated; the originals
    /// stay open). Tests use `/dev/null` descriptors to paint without a terminal.
    package init(
        termName: String, inputDescriptor: Int32, outputDescriptor: Int32, colorMode: ColorMode
    ) throws(TerminalError) {
        setlocale(LC_ALL, "")
        let outputCopy = dup(outputDescriptor)
        let inputCopy = dup(inputDescriptor)
        guard outputCopy >= 0, inputCopy >= 0,
              let output = fdopen(outputCopy, "w"), let input = fdopen(inputCopy, "r") else {
            let reason = String(cString: strerror(errno))
            if outputCopy >= 0 { Glibc.close(outputCopy) }
            if inputCopy >= 0 { Glibc.close(inputCopy) }
            throw .cannotOpen(reason)
        }
        // ncurses installs its own SIGINT/SIGTERM handlers (which exit without our cleanup) only when the
        // disposition is the default; ignoring them first and watching them with dispatch sources keeps the
        // shutdown in our hands.
        let signals = TerminationSignals()
        guard let screen = newterm(termName, output, input) else {
            signals.cancel()
            fclose(output)
            fclose(input)
            throw .badTerm(termName)
        }
        // A terminal that cannot move the cursor (TERM=dumb) gets a screen from newterm, but nothing drawn on
        // it would land in place.
        let cursorAddress = tigetstr("cup")
        guard let cursorAddress, Int(bitPattern: cursorAddress) != -1 else {
            endwin()
            delscreen(screen)
            signals.cancel()
            fclose(output)
            fclose(input)
            throw .badTerm(termName)
        }
        self.screen = screen
        self.output = output
        self.input = input
        self.signals = signals
        window = rewind_stdscr()
        raw()
        noecho()
        nonl()
        keypad(window, true)
        set_escdelay(25)
        curs_set(0)
        // Clicks and the wheel (as htop and lazygit): reported at once, without waiting to tell clicks from
        // double clicks. Selecting text with the mouse then needs Shift, as in those programs.
        mouseinterval(0)
        _ = mousemask(mmask_t(MouseEvent.wanted), nil)
        painter = ScreenPainter(window: window, colorMode: colorMode)
    }

    deinit {
        close()
    }

    /// The terminal's current size in cells (updated by ncurses when a `Key.resize` is delivered).
    package var size: (width: Int, height: Int) {
        (Int(getmaxx(window)), Int(getmaxy(window)))
    }

    /// Whether SIGINT, SIGTERM or SIGHUP arrived: the owner should stop its loop and `close()`.
    package var terminationRequested: Bool {
        signals.received
    }

    /// Waits up to `timeoutMilliseconds` (0: do not wait) for a key; nil when none came.
    package func readKey(timeoutMilliseconds: Int) -> Key? {
        wtimeout(window, Int32(max(0, timeoutMilliseconds)))
        var value: wint_t = 0
        let result = wget_wch(window, &value)
        switch result {
        case OK:
            return Key(wideCharacter: UInt32(value))
        case KEY_CODE_YES:
            let code = Int32(bitPattern: UInt32(value))
            if code == KEY_MOUSE {
                var event = MEVENT()
                guard getmouse(&event) == OK,
                      let mouse = MouseEvent.decode(buttonState: UInt(event.bstate), row: Int(event.y), column: Int(event.x))
                else { return .unknown(code) }
                return .mouse(mouse)
            }
            return Key(keyCode: code)
        default:
            return nil
        }
    }

    /// Writes `bytes` straight to the terminal, past ncurses (an OSC 52 sequence, which moves no cursor).
    package func writeRaw(_ text: String) {
        fputs(text, output)
        fflush(output)
    }

    /// Hands the terminal to another program: leaves curses mode, runs `body` (which may start a pager on the
    /// terminal and wait for it), then takes the terminal back and forces a full repaint. A Ctrl-C typed meanwhile
    /// was meant for that program: it does not end the timeline.
    package func suspend(_ body: () -> Void) {
        def_prog_mode()
        endwin()
        body()
        signals.forgetInterrupts()
        reset_prog_mode()
        wrefresh(window)
        painter.invalidate()
    }

    /// What ncurses holds for the screen, row by row (wide characters once, as on the terminal): lets tests
    /// and diagnostics check what was painted without reading the terminal itself.
    package func screenLines() -> [String] {
        let (width, height) = size
        var buffer = [wchar_t](repeating: 0, count: width + 1)
        return (0..<height).map { row in
            let count = mvwinnwstr(window, Int32(row), 0, &buffer, Int32(width))
            guard count > 0 else { return "" }
            var text = ""
            for value in buffer.prefix(Int(count)) {
                if let scalar = Unicode.Scalar(UInt32(bitPattern: value)) { text.unicodeScalars.append(scalar) }
            }
            return text
        }
    }

    /// Gives the terminal back: leaves curses mode (restoring the screen and the tty modes), frees ncurses'
    /// screen and restores the signal dispositions. Idempotent.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = mousemask(0, nil)
        curs_set(1)
        endwin()
        delscreen(screen)
        fclose(output)
        fclose(input)
        signals.cancel()
    }
}
