import Foundation
import RewindTestSupport

/// One run of `rewind ARGUMENTS` in this process (`RewindRun.inProcess`: `RewindCLI.run` with in-memory streams):
/// what a user would see of it, as swift-argument-parser's tests run its own commands.
struct CommandRun {
    /// The exit status: 0 done, 1 a command's error, 64 a usage error.
    let status: Int32
    /// Standard output, one element per line.
    let out: [String]
    /// Standard error, one element per line.
    let err: [String]

    /// Runs `rewind ARGUMENTS` with `input` as standard input.
    init(_ arguments: [String], input: String = "") {
        let run = RewindRun.inProcess(arguments, input: input)
        status = run.status ?? -1  // always set in process: the command ran to its end
        out = run.stdout
        err = run.stderr
    }

    /// Standard error as one text.
    var errorText: String { err.joined(separator: "\n") }
}

/// Files and directories a test gives a command, deleted when the value is released.
final class Scratch {
    /// A fresh directory for this test.
    let directory: URL

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The path of a new file holding `text`.
    func file(_ text: String, named name: String = "\(UUID().uuidString).json") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A path in the directory where nothing exists yet.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
