import ArgumentParser
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// `rewind import PATH…`: a JSON Lines or Redux DevTools export read back into a new session, or an app's capture
/// files (a file whose first line is a capture header, or every `*.rewind-capture.jsonl` of a directory) recorded
/// into sessions through the daemon's ingest: the offline parts of one app run make one session, each triggered
/// capture its own.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an export (JSON Lines, Redux DevTools) or an app's capture files into new sessions.",
        discussion: """
            The format of a file is detected from its content. A capture file (written by the app's inspector when \
            no daemon was reachable, or on demand; its first line is {"format":"rewind-capture",…}) is recorded \
            through the daemon's own ingest, whatever its name. A directory imports every \
            *\(CaptureHeader.fileSuffix) file in it. Capture files given together are grouped by app run: the \
            offline parts of one run become one session (actions missing between parts are counted lost), each \
            triggered capture a session of its own. One line per session made: its events, actions and lost \
            actions, and its id. See docs/SESSION-FORMAT.md, "Capture files".
            """
    )

    @Argument(help: ArgumentHelp("The files to import, or directories of capture files.", valueName: "path"))
    var paths: [String]

    @OptionGroup var data: DataOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Missing expected argument '<path> ...'") }
    }

    func run() throws {
        var captures: [URL] = []
        var exports: [String] = []
        for path in paths {
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                let found: [URL]
                do {
                    found = try CaptureImport.captureFiles(in: url)
                } catch {
                    throw CommandError("cannot import '\(path)': \(error)")
                }
                guard !found.isEmpty else {
                    throw CommandError("cannot import '\(path)': the directory holds no capture files "
                                       + "(*\(CaptureHeader.fileSuffix))")
                }
                captures += found
            } else if CaptureFileReader.isCaptureFile(url) {
                captures.append(url)
            } else {
                exports.append(path)
            }
        }
        let store = try data.openStore()
        for file in exports { try importExport(file, into: store) }
        if !captures.isEmpty { try importCaptures(captures, into: store) }
    }

    /// Imports one JSON Lines or Redux DevTools export.
    private func importExport(_ file: String, into store: SessionStore) throws {
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

    /// Records capture files, grouped by run, into sessions.
    private func importCaptures(_ files: [URL], into store: SessionStore) throws {
        let results: [CaptureImportResult]
        do {
            results = try CaptureImport(store: store).importFiles(files)
        } catch {
            let what = paths.count == 1 ? "'\(paths[0])'" : "the capture files"
            throw CommandError("cannot import \(what): \(error)")
        }
        for result in results {
            let source = result.files.count == 1 ? "1 file" : "\(result.files.count) files"
            CommandStreams.current.printLine(
                "imported \(result.eventCount) events (\(result.reason.rawValue) capture of \(result.app.name)"
                    + (result.note.map { ": \"\(TerminalText.escaped($0))\"" } ?? "") + ", "
                    + "\(source): \(result.actionCount) actions, \(result.lostActions) lost, ended "
                    + "\(result.endState.rawValue)) as session \(result.id)")
            for warning in result.warnings { CommandStreams.current.writeError("warning: \(warning)\n") }
        }
    }
}
