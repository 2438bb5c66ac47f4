import Foundation

/// What the benchmarks ran on: CPU model and count, memory, kernel, load. Read from `/proc` on Linux (fields are
/// "unknown" elsewhere).
///
/// Threading: a plain value; `Sendable`.
package struct MachineInfo: Sendable, Hashable {
    /// The CPU model name (`/proc/cpuinfo`).
    package var cpuModel: String
    /// Online processors (`sysconf(_SC_NPROCESSORS_ONLN)`, what `nproc` prints).
    package var processors: Int
    /// Total memory, bytes.
    package var memoryBytes: Double
    /// The kernel release (`uname -r`).
    package var kernel: String
    /// The 1-minute load average when read.
    package var loadAverage: Double

    /// Facts given explicitly (for tests and reports of other machines).
    package init(cpuModel: String, processors: Int, memoryBytes: Double, kernel: String, loadAverage: Double) {
        self.cpuModel = cpuModel
        self.processors = processors
        self.memoryBytes = memoryBytes
        self.kernel = kernel
        self.loadAverage = loadAverage
    }

    /// Reads the machine's facts now.
    package static func current() -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memoryKiB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Double($0) } } ?? 0
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return MachineInfo(
            cpuModel: model, processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), memoryBytes: memoryKiB * 1024,
            kernel: kernel, loadAverage: currentLoadAverage())
    }

    /// The 1-minute load average now (`/proc/loadavg`), or NaN when unavailable.
    package static func currentLoadAverage() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) } ?? .nan
    }
}
