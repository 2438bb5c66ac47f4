import Foundation

/// Copying text out of the timeline: an OSC 52 escape sequence (the terminal puts the text on the system
/// clipboard) where the terminal is known to take it, and always a file in the data directory, so that nothing
/// copied is ever lost when a terminal ignores OSC 52.
///
/// Under tmux (`TMUX` set, or `TERM` `tmux*`/`screen*`) OSC 52 from a program reaches the clipboard only with
/// tmux's `set-clipboard on` (not the default), so the file is the way; the same for GNU screen (`STY`).
/// Pure functions and one file write: safe from any thread.
package enum Clipboard {
    /// The largest text sent with OSC 52 (terminals cap the sequence; xterm's default limit is about 100 kB of
    /// base64); longer texts go only to the file.
    package static let maxOSC52Bytes = 74_000

    /// The file copies are written to (overwritten each time), in `directory`.
    package static func file(in directory: URL) -> URL {
        directory.appendingPathComponent("copied.txt")
    }

    /// Whether the terminal described by `environment` takes OSC 52: not under tmux or screen, and a `TERM` of a
    /// terminal family that implements it (xterm and its kin: kitty, alacritty, foot, wezterm, ghostty, contour…).
    package static func takesOSC52(environment: [String: String]) -> Bool {
        if environment["TMUX"].map({ !$0.isEmpty }) == true || environment["STY"].map({ !$0.isEmpty }) == true {
            return false
        }
        let term = environment["TERM"] ?? ""
        if term.hasPrefix("tmux") || term.hasPrefix("screen") { return false }
        return ["xterm", "alacritty", "foot", "wezterm", "contour", "rio", "st-"].contains { term.hasPrefix($0) }
    }

    /// The OSC 52 sequence that puts `text` on the clipboard.
    package static func osc52(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }

    /// Writes `text` to `file(in: directory)` (mode 0600: what is copied may hold what the sessions hold),
    /// creating the directory (0700) if needed; returns the file.
    package static func write(_ text: String, in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let url = file(in: directory)
        try Data(text.utf8).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url
    }
}
