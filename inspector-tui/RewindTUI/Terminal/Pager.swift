import Foundation

/// Shows a text in the user's pager (`$PAGER`, else `less`): writes it to a temporary file (mode 0600), runs
/// `/bin/sh -c '$PAGER "$1"' rewind-pager FILE` on the terminal and waits for it, then deletes the file. The pager
/// command is read from the environment as a shell command (as git and man do); the file name is passed as an
/// argument, never spliced into the command.
///
/// Threading: `show` blocks the calling thread until the pager exits; call it on the UI thread, with the terminal
/// suspended (`Terminal.suspend`).
package enum Pager {
    /// The pager command for `environment`.
    package static func command(environment: [String: String]) -> String {
        let pager = environment["PAGER"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return pager.isEmpty ? "less" : pager
    }

    /// Runs the pager on `text`; returns nil when it ran and exited with status 0, else why not.
    package static func show(_ text: String, name: String, environment: [String: String]) -> String? {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-\(UUID().uuidString.prefix(8))-\(name)")
        // Readable by the user only: the value may hold what the session's files hold.
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            return "cannot write \(file.path)"
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let command = Self.command(environment: environment)
        let arguments = ["/bin/sh", "-c", "\(command) \"$1\"", "rewind-pager", file.path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, &environment)
        guard spawned == 0 else { return "cannot start the pager: \(String(cString: strerror(spawned)))" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7F) == 0
        let code = (status >> 8) & 0xFF
        if !exited { return "the pager '\(command)' was killed by signal \(status & 0x7F)" }
        return code == 0 ? nil : "the pager '\(command)' exited with status \(code)"
    }
}
