import ArgumentParser
import Foundation
import RewindDaemon

/// `--data DIR`: where session files live. Shared by every command that reads or writes sessions.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The session directory.", valueName: "dir"))
    var data: String?

    /// The directory to use: `--data`, else `~/.rewind/sessions`.
    var directory: URL {
        data.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) } ?? SessionStore.defaultDirectory
    }

    /// The session store in ``directory``, or a clear error.
    func openStore() throws -> SessionStore {
        do {
            return try SessionStore(directory: directory)
        } catch {
            throw CommandError("cannot open the session directory \(directory.path): \(error)")
        }
    }
}
