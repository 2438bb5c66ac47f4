import Foundation
import RewindWire

/// Where capture files go, what they are called, and the rolling window that bounds them: at most
/// ``InspectorConfiguration/captureMaxFiles`` capture files in the directory (the oldest are deleted as new ones
/// start), each closed once it holds ``InspectorConfiguration/captureMaxFileBytes`` (plus at most the one message that
/// crossed the limit).
///
/// Names say what a file is: `APP-2026-11-30T04-12-33Z-pid4242-offline-1.rewind-capture.jsonl` (the app, when its
/// file started in UTC, the process, why, the part) — sorted by name, one app's files are in time order.
///
/// Threading: owned by one thread (the inspector's pipeline thread).
struct CaptureDirectory {
    /// The directory.
    let url: URL
    /// The most capture files kept in it.
    let maxFiles: Int

    /// The default directory: `$XDG_STATE_HOME/rewind/captures` (`~/.local/state/rewind/captures` when unset) on
    /// Linux; the app's caches directory (`…/Library/Caches/rewind-captures`) on Apple platforms.
    static var defaultURL: URL {
        #if canImport(Darwin)
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        return caches.appendingPathComponent("rewind-captures", isDirectory: true)
        #else
        let environment = ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() + "/.local/state")
        return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("rewind/captures", isDirectory: true)
        #endif
    }

    /// Creates the directory (mode 0700) when missing.
    func prepare() throws(CaptureWriteError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw CaptureWriteError(path: url.path, doing: "create the directory", reason: error.localizedDescription)
        }
    }

    /// A new file's name: `APP-TIME-pidPID-KIND.rewind-capture.jsonl` (KIND: `offline-PART`, or `trigger`), with
    /// `-2`, `-3`… before the suffix when taken.
    func newFileURL(app: String, createdAt: Date, kind: String) -> URL {
        let base = "\(Self.safeName(app))-\(Self.timestamp(createdAt))-pid\(getpid())-\(kind)"
        var candidate = url.appendingPathComponent(base + CaptureHeader.fileSuffix)
        var attempt = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = url.appendingPathComponent("\(base)-\(attempt)" + CaptureHeader.fileSuffix)
            attempt += 1
        }
        return candidate
    }

    /// Deletes the oldest capture files (by modification time) while there are more than ``maxFiles``, never
    /// `keeping`. Returns how many were deleted.
    @discardableResult
    func prune(keeping: URL) -> Int {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: url.path) else { return 0 }
        var files: [(url: URL, modified: Date)] = []
        for name in names where name.hasSuffix(CaptureHeader.fileSuffix) {
            let file = url.appendingPathComponent(name)
            let modified = (try? manager.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? nil
            files.append((file, modified ?? .distantPast))
        }
        guard files.count > maxFiles else { return 0 }
        files.sort { ($0.modified, $0.url.lastPathComponent) < ($1.modified, $1.url.lastPathComponent) }
        var deleted = 0
        for file in files where files.count - deleted > maxFiles && file.url.path != keeping.path {
            if (try? manager.removeItem(at: file.url)) != nil { deleted += 1 }
        }
        return deleted
    }

    /// The app's name as a file name part: letters, digits, `-`, `_` and `.` kept, anything else `_`.
    static func safeName(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        let text = String(kept.prefix(64))
        return text.isEmpty || text.hasPrefix(".") ? "app" + text : text
    }

    /// `2026-11-30T04-12-33Z`: UTC, no colons (they are awkward in file names on some systems).
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss'Z'"
        return formatter.string(from: date)
    }
}
