import ArgumentParser
import Foundation
import RewindDaemon
import RewindSessionFile

/// `rewind export SESSION --format jsonl|redux-devtools [-o FILE]`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session as JSON Lines or in the Redux DevTools import format.",
        discussion: "JSON Lines is documented in docs/SESSION-FORMAT.md. Without -o the export goes to standard output."
    )

    @Argument(help: "The session: its id or a unique prefix (see 'rewind sessions'), or a capture file.")
    var session: String

    @Option(name: .long, help: "jsonl or redux-devtools.")
    var format: SessionExportFormat = .jsonl

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The file to write.", valueName: "file"))
    var output: String?

    @OptionGroup var data: DataOptions

    func run() throws {
        // A capture file stands for the session imported from it (CaptureFileArgument).
        let store = try CaptureFileArgument.isCaptureFile(session) ? data.openStore() : data.openStoreForReading()
        let id = try CaptureFileArgument.session(for: session, in: store) ?? SessionIDResolver.resolve(session, in: store)
        let reader: SessionReader
        do {
            reader = try store.openSession(id)
        } catch {
            throw CommandError("\(error)")
        }
        let exporter = SessionExporter(reader: reader)
        let progress = ProgressLine("exporting")
        defer { progress.finish() }
        do {
            if let output {
                try exporter.export(format: format, to: URL(fileURLWithPath: output), progress: progress.update)
            } else {
                try exporter.export(format: format, toFileDescriptor: 1, progress: progress.update)
            }
        } catch {
            throw CommandError("\(error)")
        }
    }
}

extension SessionExportFormat: ExpressibleByArgument {}
