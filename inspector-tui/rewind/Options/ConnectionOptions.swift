import ArgumentParser
import Foundation
import RewindWire

/// `--host`, `--port`, `--token`: where the daemon listens, and the token it requires. Shared by the daemon and by
/// the commands that talk to a running daemon.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: "The address to listen on or connect to (loopback unless a token is set).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on or connect to.")
    var port = WireProtocol.defaultPort

    @Option(name: .long, help: ArgumentHelp("The token apps and control clients must present (also REWIND_TOKEN).",
                                            valueName: "token"))
    var token: String?

    /// `--token`, else `REWIND_TOKEN`, else none.
    var effectiveToken: String? {
        if let token, !token.isEmpty { return token }
        let environment = ProcessInfo.processInfo.environment["REWIND_TOKEN"]
        return environment?.isEmpty == false ? environment : nil
    }
}
