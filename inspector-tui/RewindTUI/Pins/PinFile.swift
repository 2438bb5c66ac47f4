import Foundation

/// The file the pinned watches persist in: `$XDG_CONFIG_HOME/rewind/pins.json` (`~/.config/rewind/pins.json` when
/// `XDG_CONFIG_HOME` is unset or not absolute), a JSON object `{"version": 1, "apps": {"APP": ["/pointer", …]}}`.
/// Written atomically (a temporary file renamed over it). A file that cannot be read as such is reported, never
/// written over: the user's file stays as it was until they fix or remove it.
/// Threading: a plain value; its methods do file I/O on the calling thread (a few hundred bytes: the UI thread's).
package struct PinFile: Sendable, Hashable {
    /// What reading the file gave.
    package enum Loaded: Sendable, Hashable {
        /// The pins it holds (none when the file does not exist yet).
        case board(PinBoard)
        /// The file exists and is not a pins file: why, in a sentence.
        case corrupt(String)
    }

    /// The file's URL.
    package let url: URL

    /// The file at `url`.
    package init(url: URL) {
        self.url = url
    }

    /// The file the environment names: see the type's description.
    package init(environment: [String: String]) {
        let config: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            config = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? FileManager.default.homeDirectoryForCurrentUser.path
            config = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        self.init(url: config.appendingPathComponent("rewind", isDirectory: true).appendingPathComponent("pins.json"))
    }

    /// The file's shape on disk.
    private struct Contents: Codable {
        /// The file's format: 1.
        var version: Int
        /// The pinned pointers of each app, by its name.
        var apps: [String: [String]]
    }

    /// Reads the file: its pins, none when it does not exist, or why it is not a pins file.
    package func load() -> Loaded {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return .board(PinBoard())
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return .board(PinBoard()) }
            return .corrupt("cannot read \(url.path): \(error.localizedDescription)")
        }
        do {
            let contents = try JSONDecoder().decode(Contents.self, from: data)
            guard contents.version == 1 else {
                return .corrupt("\(url.path) is version \(contents.version) of the pins file; this rewind reads "
                    + "version 1")
            }
            return .board(PinBoard(apps: contents.apps))
        } catch {
            return .corrupt("\(url.path) is not a pins file (JSON {\"version\": 1, \"apps\": {…}}): "
                + Self.reason(error))
        }
    }

    /// Writes `board` atomically, creating the directory when needed.
    package func save(_ board: PinBoard) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(Contents(version: 1, apps: board.apps))
        data.append(0x0A)
        try data.write(to: url, options: .atomic)
    }

    /// A short reason for a decoding error.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path.isEmpty ? "the file" : path): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
