#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit, raised for a daemon that serves many apps: each connected app costs a socket and
/// about four descriptors for its session file (the database, its write-ahead log and shared memory, and the
/// session lock), so a default soft limit of 1,024 admits only about 200 apps, while the hard limit is usually far
/// higher. Raising the soft limit up to the hard one is what servers commonly do at start.
enum DescriptorLimit {
    /// Raises the soft limit to the hard limit (at most 1,048,576); returns the soft limit now in force.
    @discardableResult
    static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let wanted = min(limit.rlim_max, rlim_t(1 << 20))
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
