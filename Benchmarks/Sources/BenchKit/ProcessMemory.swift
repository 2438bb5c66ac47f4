import Foundation

/// This process's memory as the kernel counts it (`/proc/self/status`): resident set now and its peak.
///
/// Threading: stateless; any thread.
package enum ProcessMemory {
    /// Resident memory now (`VmRSS`), bytes; 0 when unavailable.
    package static func residentBytes() -> Double { statusField("VmRSS:") }

    /// The peak resident memory of the process so far (`VmHWM`), bytes; 0 when unavailable.
    package static func peakResidentBytes() -> Double { statusField("VmHWM:") }

    private static func statusField(_ name: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kib = Double(fields[1]) { return kib * 1024 }
        }
        return 0
    }
}
