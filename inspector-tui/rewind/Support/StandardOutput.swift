import Foundation

/// Writes lines to standard output for commands that stream (`rewind tail`): a reader that went away (`| head`,
/// `| jq` stopped with Ctrl-C) ends the command quietly, as a closed pipe ends any Unix filter, instead of crashing.
///
/// The daemon connection's library ignores `SIGPIPE`, so a write to a closed pipe fails with `EPIPE` rather than
/// ending the process; `FileHandle.write(_:)` would trap on that error.
///
/// Threading: any thread; each line is one `write` call.
enum StandardOutput {
    /// Writes `line` and a line break; on failure (the reader is gone) exits with status 0.
    static func writeLineOrExit(_ line: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            exit(0)
        }
    }
}
