import Foundation
import RewindSessionFile
import RewindWire

/// The capture files that make one session: the offline parts of one app run (same `app.name` and `app.instance`),
/// in part order, or one triggered capture on its own (docs/SESSION-FORMAT.md, "Capture files").
///
/// Threading: a plain value.
package struct CaptureRun: Sendable, Hashable {
    /// One file of the run and its header.
    package struct File: Sendable, Hashable {
        /// The capture file.
        package var url: URL
        /// Its first line.
        package var header: CaptureHeader

        /// A file with its header.
        package init(url: URL, header: CaptureHeader) {
            self.url = url
            self.header = header
        }
    }

    /// The run's files, in the order they are recorded: by `part` for offline parts. Never empty.
    package var files: [File]

    /// The app run that wrote the files.
    package var app: AppIdentity { files[0].header.app }
    /// Why the files were written (a run's files all share it).
    package var reason: CaptureHeader.Reason { files[0].header.reason }

    /// What the session's `importedFrom` says: the file's name, or the first and last of several with their number.
    package var sourceDescription: String {
        let names = files.map(\.url.lastPathComponent)
        switch names.count {
        case 1: return names[0]
        case 2: return names.joined(separator: ", ")
        default: return "\(names[0]) … \(names[names.count - 1]) (\(names.count) files)"
        }
    }

    /// Groups capture files into runs: the offline parts of one app run (same app name and instance) make one run,
    /// sorted by `part`; each triggered capture is a run of its own. Runs are in the order they began (the first
    /// file's `createdAt`, then its path). Throws `malformedImport` when two files claim the same part of one run.
    package static func group(_ files: [File]) throws(SessionStoreError) -> [CaptureRun] {
        var runs: [CaptureRun] = []
        var offline: [AppIdentity: [File]] = [:]
        var order: [AppIdentity] = []
        for file in files {
            if file.header.reason == .offline {
                if offline[file.header.app] == nil { order.append(file.header.app) }
                offline[file.header.app, default: []].append(file)
            } else {
                runs.append(CaptureRun(files: [file]))
            }
        }
        for app in order {
            let parts = offline[app, default: []].sorted {
                ($0.header.part ?? 0, $0.header.createdAt, $0.url.path)
                    < ($1.header.part ?? 0, $1.header.createdAt, $1.url.path)
            }
            for (earlier, later) in zip(parts, parts.dropFirst()) where earlier.header.part != nil
                && earlier.header.part == later.header.part {
                throw .malformedImport(path: later.url.path, line: 1, reason: "it is part \(later.header.part!) of "
                                           + "the offline capture of \(app.name) (\(app.instance)), and so is "
                                           + "\(earlier.url.path): import one of them")
            }
            runs.append(CaptureRun(files: parts))
        }
        return runs.sorted {
            ($0.files[0].header.createdAt, $0.files[0].url.path) < ($1.files[0].header.createdAt, $1.files[0].url.path)
        }
    }
}
