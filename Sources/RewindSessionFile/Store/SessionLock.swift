import Foundation

/// The advisory lock (`flock`) on a session's side file `<id>.lock` that says "a live process is recording this
/// session". The kernel drops it when the process dies, however it dies, so a session left `live` in its metadata
/// whose lock is free was recorded by a process that is gone: it reads as interrupted.
/// Threading: an instance is owned by one recording and used under its lock; the static probes are thread-safe.
package final class SessionLock {
    private var descriptor: Int32
    private let path: String

    /// Creates the lock file (it must not exist yet) and takes the lock without waiting.
    /// Throws `unwritable` when the file cannot be created; returns nil when the file already exists.
    package static func acquireNew(at path: String) throws(SessionStoreError) -> SessionLock? {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            let code = errno
            if code == EEXIST { return nil }
            throw SessionLock.error(path: path, errno: code)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            throw SessionLock.error(path: path, errno: code)
        }
        return SessionLock(descriptor: fd, path: path)
    }

    /// Takes the lock of an existing session without waiting: nil when a live process holds it (or the file
    /// does not exist); used to repair a session whose recorder died.
    package static func acquireExisting(at path: String) -> SessionLock? {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)  // a FIFO planted there must not block
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return SessionLock(descriptor: fd, path: path)
    }

    /// True when a live process (this one included) holds the lock at `path`.
    package static func isHeld(at path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // a FIFO planted there must not block the listing
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        release(removingFile: false)
    }

    /// Releases the lock; with `removingFile`, deletes the side file first (while still holding the lock, so
    /// nobody can take a lock on a file about to vanish and believe it meaningful). Idempotent.
    package func release(removingFile: Bool) {
        guard descriptor >= 0 else { return }
        if removingFile { unlink(path) }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    private static func error(path: String, errno code: Int32) -> SessionStoreError {
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path) }
        return .unwritable(path: path, reason: String(cString: strerror(code)))
    }
}
