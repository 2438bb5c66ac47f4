#if canImport(Glibc)
import Glibc
import RewindSessionFile
#endif

/// Gives memory the daemon no longer uses back to the system.
///
/// A finished app run releases its session's state (often megabytes), but glibc's allocator keeps freed pages in
/// its arenas, so the daemon's resident memory would stay at its high-water mark after every large run. Trimming
/// once a run has ended returns them (`malloc_trim`); elsewhere it does nothing.
///
/// Threading: any thread; glibc's allocator takes its own locks.
enum FreedMemory {
    /// Returns the allocator's free pages to the system. Costs about a millisecond; call it after a session ends,
    /// never on the service thread.
    static func release() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up once (`<malloc.h>` is not part of Swift's Glibc module); nil elsewhere.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}
