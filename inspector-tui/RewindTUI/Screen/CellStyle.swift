/// How one screen cell is drawn: colours and attributes.
///
/// Meaning must never depend on colour alone: views pair colours with a symbol or an attribute (reverse, bold,
/// underline) so that the monochrome fallback (`NO_COLOR`, or a terminal without colours) stays readable.
/// A plain value type: safe to use from any thread.
package struct CellStyle: Sendable, Hashable {
    /// Text colour.
    package var foreground: TerminalColor
    /// Cell background colour.
    package var background: TerminalColor
    /// Bold (bright) text.
    package var bold: Bool
    /// Foreground and background swapped; survives the monochrome fallback, so selection uses it.
    package var reverse: Bool
    /// Dim (half-bright) text.
    package var dim: Bool
    /// Underlined text.
    package var underline: Bool

    /// Creates a style; every parameter defaults to the terminal's plain look.
    package init(
        foreground: TerminalColor = .default,
        background: TerminalColor = .default,
        bold: Bool = false,
        reverse: Bool = false,
        dim: Bool = false,
        underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    /// The terminal's default look: default colours, no attributes.
    package static let plain = CellStyle()

    /// This style with another foreground colour.
    package func foreground(_ color: TerminalColor) -> CellStyle {
        var copy = self
        copy.foreground = color
        return copy
    }

    /// This style with bold set.
    package var bolded: CellStyle {
        var copy = self
        copy.bold = true
        return copy
    }

    /// This style with reverse video set.
    package var reversed: CellStyle {
        var copy = self
        copy.reverse = true
        return copy
    }

    /// This style with dim set.
    package var dimmed: CellStyle {
        var copy = self
        copy.dim = true
        return copy
    }

    /// This style with underline set.
    package var underlined: CellStyle {
        var copy = self
        copy.underline = true
        return copy
    }
}
