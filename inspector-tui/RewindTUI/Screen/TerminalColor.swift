/// One of the eight ANSI colours every colour terminal has, or the terminal's own default.
///
/// The timeline uses only these so that it looks the same on any colour terminal and maps to ncurses colour
/// pairs without needing 256-colour support. A plain value type: safe to use from any thread.
package enum TerminalColor: Int, Sendable, Hashable, CaseIterable {
    /// The terminal's default foreground or background (ncurses colour -1 with `use_default_colors`).
    case `default` = -1
    /// ANSI colour 0.
    case black = 0
    /// ANSI colour 1.
    case red = 1
    /// ANSI colour 2.
    case green = 2
    /// ANSI colour 3.
    case yellow = 3
    /// ANSI colour 4.
    case blue = 4
    /// ANSI colour 5.
    case magenta = 5
    /// ANSI colour 6.
    case cyan = 6
    /// ANSI colour 7.
    case white = 7
}
