#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Reads how much memory the process holds: its resident set on Linux (`/proc/self/statm`), its physical footprint
/// on Apple platforms (what the system's memory limits count, `TASK_VM_INFO`'s `phys_footprint`). Nil where neither
/// can be read.
///
/// The pipeline reads it at most once a millisecond (``ResidentMemoryWatch``): on Linux an `open`, a `read` and a
/// `close` of a file the kernel fills from counters, a few microseconds.
///
/// Threading: stateless; any thread.
enum ResidentMemory {
    /// True when AddressSanitizer or ThreadSanitizer runs in this process (its runtime's entry point is loaded). Their
    /// shadow memory and ASan's quarantine of freed blocks grow the resident memory with every allocation and free,
    /// so it says nothing about what the inspector holds: the watch stays off (the charges still bound the outbox).
    static let sanitizerRuntimeLoaded: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(handle) }
        return dlsym(handle, "__tsan_init") != nil || dlsym(handle, "__asan_init") != nil
    }()

    /// ``currentBytes()`` where the resident memory means what the watch needs; nil under a sanitizer.
    static func currentBytesUnlessSanitized() -> Int? {
        sanitizerRuntimeLoaded ? nil : currentBytes()
    }

    /// The process's resident memory now, in bytes; nil when it cannot be read here.
    static func currentBytes() -> Int? {
        #if canImport(Darwin)
        var info = task_vm_info_data_t()
        var count = mach_msg_type_number_t(MemoryLayout<task_vm_info_data_t>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(TASK_VM_INFO), $0, &count)
            }
        }
        return result == KERN_SUCCESS ? Int(info.phys_footprint) : nil
        #elseif os(Linux)
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 96)
        let length = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard length > 0 else { return nil }
        // "size resident shared text lib data dt", in pages: the second field.
        let fields = buffer[..<length].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }
}
