import Foundation

/// A disk that freezes or fills on demand, for tests: a small `LD_PRELOAD` library, compiled with `clang` when first
/// needed, that makes every `open`, `write`, `pwrite` and `fsync` on a path under ``directory`` wait while the freeze
/// flag file exists, as a hung disk or network filesystem would (the issue's reproduction froze the real one with
/// `fsfreeze`), and every `write` and `pwrite` there fail with `ENOSPC` while the full flag file exists, as a full disk
/// would. Only the processes started with ``environment`` are affected.
///
/// Threading: create and use from one test.
package final class FrozenDisk {
    /// The directory whose files freeze.
    package let directory: URL
    private let flag: URL
    private let fullFlag: URL
    /// The variables that load the library in a child process.
    package let environment: [String: String]

    /// Compiles the library (once per test run) for `directory`; throws ``Unavailable`` when no C compiler is there.
    package init(directory: URL) throws {
        self.directory = directory
        flag = directory.deletingLastPathComponent().appendingPathComponent("\(directory.lastPathComponent).frozen")
        fullFlag = directory.deletingLastPathComponent().appendingPathComponent("\(directory.lastPathComponent).full")
        let library = try Self.library()
        environment = ["LD_PRELOAD": library, "REWIND_FREEZE_DIR": directory.path, "REWIND_FREEZE_FLAG": flag.path,
                       "REWIND_FULL_FLAG": fullFlag.path]
    }

    /// From now on, writes under ``directory`` fail with `ENOSPC` (no space left on device).
    package func fill() {
        _ = FileManager.default.createFile(atPath: fullFlag.path, contents: Data())
    }

    /// Writes succeed again (space was freed).
    package func free() {
        try? FileManager.default.removeItem(at: fullFlag)
    }

    /// A new data directory whose disk can freeze and fill, for the test `purpose` names; nil (having printed why the
    /// test is skipped) under a sanitizer, whose runtime must come first among the daemon's libraries (the preloaded
    /// one would precede it), or without a C compiler. The directory is removed when `cleanup` is called.
    package static func forTest(_ purpose: String) -> (disk: FrozenDisk, data: URL)? {
        guard TestTime.scale == 1 else {
            print("skipped: the \(purpose) test does not run under a sanitizer (LD_PRELOAD)")
            return nil
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-disk-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            return (try FrozenDisk(directory: data), data)
        } catch {
            try? FileManager.default.removeItem(at: data)
            print("skipped: the \(purpose) test needs clang (\(error))")
            return nil
        }
    }

    /// Thaws, frees, and removes ``directory``.
    package func cleanup() {
        thaw()
        free()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts `rewind serve --headless` on a free port recording into ``directory`` on this disk, and waits until it
    /// listens (throws when it does not).
    package func startDaemon(port: Int = FreePort.next()) throws -> DaemonProcess {
        try DaemonProcess(port: port, dataDirectory: directory, environment: environment)
    }

    /// From now on, file operations under ``directory`` wait.
    package func freeze() {
        _ = FileManager.default.createFile(atPath: flag.path, contents: Data())
    }

    /// The waiting operations go on.
    package func thaw() {
        try? FileManager.default.removeItem(at: flag)
    }

    /// Why a test cannot freeze a disk here.
    package struct Unavailable: Error, CustomStringConvertible {
        /// What is missing.
        package let description: String
    }

    private static let built: Result<String, Unavailable> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-frozen-disk-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("freeze.c"), library = folder.appendingPathComponent("libfreeze.so")
        do {
            try FrozenDisk.source.write(to: source, atomically: true, encoding: .utf8)
        } catch {
            return .failure(Unavailable(description: "cannot write \(source.path): \(error)"))
        }
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["clang", "-shared", "-fPIC", "-O1", "-o", library.path, source.path, "-ldl"]
        compiler.standardOutput = FileHandle.nullDevice
        compiler.standardError = FileHandle.nullDevice
        do {
            try compiler.run()
            compiler.waitUntilExit()
        } catch {
            return .failure(Unavailable(description: "no C compiler to build the frozen-disk library: \(error)"))
        }
        guard compiler.terminationStatus == 0 else {
            return .failure(Unavailable(description: "clang could not build the frozen-disk library"))
        }
        return .success(library.path)
    }()

    private static func library() throws -> String {
        try built.get()
    }

    /// The library's source.
    private static let source = #"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int under_dir(const char *path) {
    const char *dir = getenv("REWIND_FREEZE_DIR");
    return dir && path && strncmp(path, dir, strlen(dir)) == 0;
}
static int fd_under_dir(int fd) {
    char link[64], target[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0) return 0;
    target[n] = 0;
    return under_dir(target);
}
static void wait_while_frozen(void) {
    const char *flag = getenv("REWIND_FREEZE_FLAG");
    struct stat st;
    while (flag && stat(flag, &st) == 0) usleep(10000);
}
static int full(void) {
    const char *flag = getenv("REWIND_FULL_FLAG");
    struct stat st;
    return flag && stat(flag, &st) == 0;
}
#define FAIL_WHEN_FULL if (full()) { errno = ENOSPC; return -1; }
typedef ssize_t (*write_f)(int, const void *, size_t);
typedef ssize_t (*pwrite_f)(int, const void *, size_t, off_t);
typedef int (*sync_f)(int);
typedef int (*open_f)(const char *, int, ...);
#define REAL(name, type) static type real_##name; if (!real_##name) real_##name = (type)dlsym(RTLD_NEXT, #name)
ssize_t write(int fd, const void *b, size_t n) { REAL(write, write_f); if (fd > 2 && fd_under_dir(fd)) { wait_while_frozen(); FAIL_WHEN_FULL } return real_write(fd, b, n); }
ssize_t pwrite64(int fd, const void *b, size_t n, off_t o) { REAL(pwrite64, pwrite_f); if (fd_under_dir(fd)) { wait_while_frozen(); FAIL_WHEN_FULL } return real_pwrite64(fd, b, n, o); }
ssize_t pwrite(int fd, const void *b, size_t n, off_t o) { REAL(pwrite, pwrite_f); if (fd_under_dir(fd)) { wait_while_frozen(); FAIL_WHEN_FULL } return real_pwrite(fd, b, n, o); }
int fsync(int fd) { REAL(fsync, sync_f); if (fd_under_dir(fd)) wait_while_frozen(); return real_fsync(fd); }
int fdatasync(int fd) { REAL(fdatasync, sync_f); if (fd_under_dir(fd)) wait_while_frozen(); return real_fdatasync(fd); }
int open64(const char *p, int f, ...) { REAL(open64, open_f); va_list a; va_start(a, f); int m = va_arg(a, int); va_end(a); if (under_dir(p)) wait_while_frozen(); return real_open64(p, f, m); }
int open(const char *p, int f, ...) { REAL(open, open_f); va_list a; va_start(a, f); int m = va_arg(a, int); va_end(a); if (under_dir(p)) wait_while_frozen(); return real_open(p, f, m); }
"""#
}
