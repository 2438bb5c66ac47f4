/// Why the timeline could not take over the terminal. Each message says what is wrong and what to do, and is
/// meant to be printed as is before exiting with a non-zero status. A plain value type.
package enum TerminalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a CI job).
    case notATerminal
    /// `TERM` is unset or empty.
    case missingTerm
    /// `TERM` names a terminal type that terminfo does not know, or one that cannot address the cursor
    /// (`dumb`, hard-copy terminals).
    case badTerm(String)
    /// The terminal's file descriptors could not be opened for ncurses.
    case cannotOpen(String)

    /// The message to print.
    package var description: String {
        switch self {
        case .notATerminal:
            return "rewind: standard input/output is not a terminal, so the live timeline cannot run; "
                + "use `rewind serve --headless` to record without it"
        case .missingTerm:
            return "rewind: the TERM environment variable is not set, so the terminal type is unknown; "
                + "set it (for example TERM=xterm-256color) or use `rewind serve --headless`"
        case .badTerm(let name):
            return "rewind: cannot drive terminal type '\(name)' (from TERM): terminfo has no usable entry for it; "
                + "set TERM to your terminal's type (for example TERM=xterm-256color), install its terminfo "
                + "entry (ncurses-term), or use `rewind serve --headless`"
        case .cannotOpen(let reason):
            return "rewind: cannot open the terminal: \(reason)"
        }
    }
}
