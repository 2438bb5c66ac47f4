import ArgumentParser
import Foundation
import RewindDaemon
import RewindSessionFile

/// `rewind import FILE`: a JSON Lines or Redux DevTools export, read back into a new session.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a JSON Lines or Redux DevTools export into a new session (the format is detected)."
    )

    @Argument(help: "The file to import.")
    var file: String

    @OptionGroup var data: DataOptions

    func run() throws {
        let store = try data.openStore()
        let progress = ProgressLine("importing")
        let result: SessionImportResult
        do {
            result = try SessionImporter(store: store).importSession(from: URL(fileURLWithPath: file),
                                                                      progress: progress.update)
        } catch {
            progress.finish()
            throw CommandError("cannot import '\(file)': \(error)")
        }
        progress.finish()
        CommandStreams.current.printLine("imported \(result.eventCount) events (\(result.format.rawValue)) as session \(result.id)")
        for warning in result.warnings { CommandStreams.current.writeError("warning: \(warning)\n") }
    }
}
