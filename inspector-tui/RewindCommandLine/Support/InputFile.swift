import Foundation
import RewindWire

/// Reads the JSON documents the utilities take: a path, or `-` for standard input.
enum InputFile {
    /// The bytes of `path`, or of standard input when `path` is `-`.
    static func read(_ path: String) throws(CommandError) -> [UInt8] {
        if path == "-" {
            return CommandStreams.current.readInput()
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError("cannot read '\(path)': no such file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError("cannot read '\(path)': permission denied or not a regular file")
        }
        return [UInt8](data)
    }

    /// The JSON document in `path` (or standard input), with an error naming the file, byte offset and problem.
    static func readJSON(_ path: String) throws(CommandError) -> JSONValue {
        let bytes = try read(path)
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw CommandError("'\(path == "-" ? "standard input" : path)' is not valid JSON: \(error)")
        }
    }
}
