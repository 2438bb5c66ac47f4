import ArgumentParser
import Foundation
import RewindWire

/// `--host`, `--port`, `--token`, `--token-file`: where the daemon listens, and the token it requires. Shared by
/// the daemon and by the commands that talk to a running daemon.
///
/// The token comes from `--token-file` (a file only its owner can read is the safe way: the token is not in
/// the command line, which every local user can read in `ps` or `/proc/PID/cmdline`), from the `REWIND_TOKEN`
/// environment variable, or from `--token` (visible in `ps`; for trying things out).
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: "The address to listen on or connect to (loopback unless a token is set).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on or connect to.")
    var port = WireProtocol.defaultPort

    @Option(name: .long, help: ArgumentHelp(
        "The token apps and control clients must present. Other local users can read it in 'ps': prefer "
            + "--token-file or REWIND_TOKEN.", valueName: "token"))
    var token: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp(
        "Read the token from this file (its content without the final line break; keep it mode 0600). "
            + "Without --token and --token-file, the REWIND_TOKEN environment variable is used.", valueName: "path"))
    var tokenFile: String?

    mutating func validate() throws {
        if token != nil && tokenFile != nil {
            throw ValidationError("--token and --token-file cannot be used together")
        }
        if let tokenFile { _ = try Self.readToken(from: tokenFile) }
    }

    /// `--token`, else the content of `--token-file`, else `REWIND_TOKEN`, else none.
    var effectiveToken: String? {
        if let token, !token.isEmpty { return token }
        if let tokenFile { return try? Self.readToken(from: tokenFile) }
        let environment = ProcessInfo.processInfo.environment["REWIND_TOKEN"]
        return environment?.isEmpty == false ? environment : nil
    }

    /// The token in the file at `path`: its UTF-8 content without the final line break (`\n` or `\r\n`).
    /// Throws a `ValidationError` naming the file when it cannot be read, is not UTF-8, or holds no token.
    static func readToken(from path: String) throws -> String {
        let expanded = (path as NSString).expandingTildeInPath
        guard let data = FileManager.default.contents(atPath: expanded) else {
            throw ValidationError("--token-file: cannot read \(path)")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw ValidationError("--token-file: \(path) is not UTF-8 text")
        }
        // Characters compare "\r\n" as one: check the scalars.
        if text.unicodeScalars.last == "\n" { text.unicodeScalars.removeLast() }
        if text.unicodeScalars.last == "\r" { text.unicodeScalars.removeLast() }
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else {
            throw ValidationError("--token-file: \(path) must hold the token on one line")
        }
        return text
    }
}
