import Foundation

/// How long a fuzzing pass runs, read from the environment: the short pass of the normal suite by default,
/// a long one under `make fuzz`.
///
/// - `REWIND_FUZZ_SECONDS`: stop after this many seconds (default 6: the short pass stays under 10 s in debug);
/// - `REWIND_FUZZ_ITERATIONS`: stop after this many inputs (default 4,000 for the short pass, unbounded when
///   `REWIND_FUZZ_SECONDS` is set);
/// - `REWIND_FUZZ_SEED`: the seed (default fixed, so the short pass is the same on every run);
/// - `REWIND_FUZZ_LAST_INPUT`: a file each input is written to before it runs, so that an input that kills the
///   process can be found afterwards (`make fuzz` copies it into the corpus).
///
/// Threading: a value type; safe to share.
struct FuzzSettings: Sendable {
    /// The most inputs to run.
    var iterations: Int
    /// The most wall-clock time to spend.
    var seconds: Double
    /// The seed of the mutator.
    var seed: UInt64
    /// Where to write each input before running it, if anywhere.
    var lastInputPath: String?
    /// Whether this is a long pass (`REWIND_FUZZ_SECONDS` or `REWIND_FUZZ_ITERATIONS` set): findings are saved
    /// to the corpus folder.
    var isLongPass: Bool

    /// An input taking longer than this is reported as a hang.
    static let hangThreshold: Double = 1.0

    /// The settings from `environment`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let seconds = environment["REWIND_FUZZ_SECONDS"].flatMap(Double.init)
        let iterations = environment["REWIND_FUZZ_ITERATIONS"].flatMap(Int.init)
        isLongPass = seconds != nil || iterations != nil
        self.seconds = seconds ?? (isLongPass ? .infinity : 6)
        self.iterations = iterations ?? (isLongPass ? .max : 4_000)
        seed = environment["REWIND_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
        lastInputPath = environment["REWIND_FUZZ_LAST_INPUT"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
