/// Whether the painter uses colours.
///
/// `monochrome` keeps only attributes (bold, reverse, dim, underline); chosen when `NO_COLOR` is set to a
/// non-empty value (https://no-color.org) or the terminal has no colours. A plain value type.
package enum ColorMode: Sendable, Hashable {
    /// The eight ANSI colours plus the terminal's defaults.
    case colors
    /// Attributes only.
    case monochrome

    /// The mode asked for by the environment: `monochrome` when `NO_COLOR` is set and not empty, else `colors`
    /// (the painter still falls back to monochrome when the terminal has no colours).
    package static func preferred(environment: [String: String]) -> ColorMode {
        if let value = environment["NO_COLOR"], !value.isEmpty { return .monochrome }
        return .colors
    }
}
