import Foundation

/// Counts of what this process holds, for leak checks in tests (Linux: read from /proc).
///
/// Threading: stateless, usable from any thread.
package enum ProcessResources {
    /// Open file descriptors.
    package static var openFileDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// Threads of the process.
    package static var threads: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// Resident memory in bytes.
    package static var residentBytes: Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Waits until `predicate` holds or `timeout` (stretched by `TestTime.scale`) passes, polling every few
    /// milliseconds (for counts the kernel updates asynchronously, such as threads that are exiting).
    package static func settle(timeout: Double = 5, _ predicate: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while !predicate() {
            if Date() >= deadline { return false }
            usleep(2_000)
        }
        return true
    }
}
