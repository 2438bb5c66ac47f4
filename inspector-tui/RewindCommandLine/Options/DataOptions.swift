import ArgumentParser
import Foundation
import RewindDaemon
import RewindSessionFile

/// `--data DIR`: where session files live. Shared by every command that reads or writes sessions.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The session directory (default ~/.rewind/sessions).", valueName: "dir"))
    var data: String?

    /// The directory to use: `--data`, else `~/.rewind/sessions`.
    var directory: URL {
        data.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) } ?? SessionStore.defaultDirectory
    }

    /// The session store in ``directory`` for a command that records or imports: the directory is created when
    /// missing. Errors name the directory.
    func openStore() throws -> SessionStore {
        do {
            return try SessionStore(directory: directory)
        } catch {
            throw CommandError("cannot open the session directory \(directory.path): \(error)")
        }
    }

    /// The session store in ``directory`` for a command that only reads sessions: a missing directory is an error
    /// naming it (never created).
    func openStoreForReading() throws(CommandError) -> SessionStore {
        do {
            return try SessionStore(directory: directory, creating: false)
        } catch {
            throw missingDirectoryError(error)
        }
    }

    /// The store for reading, or nil when the default directory does not exist yet (nothing was recorded);
    /// an explicit `--data` that does not exist is still an error.
    func openStoreForReadingIfRecorded() throws(CommandError) -> SessionStore? {
        if data == nil && !FileManager.default.fileExists(atPath: directory.path) { return nil }
        return try openStoreForReading()
    }

    private func missingDirectoryError(_ error: SessionStoreError) -> CommandError {
        let path = directory.path
        guard case .unreadable(_, let reason) = error else {
            return CommandError("cannot open the session directory \(path): \(error)")
        }
        let what = reason == "no such directory" ? "does not exist" : "is not a directory"
        if let data {
            return CommandError("--data \(data): the session directory \(path) \(what)")
        }
        return CommandError("the session directory \(path) \(what): nothing was recorded there yet "
            + "(pass --data DIR where the sessions are)")
    }
}
