import Foundation

/// Time limits of the end-to-end tests, stretched for slow builds.
///
/// Every wait in these tests (a child's exit, a line it prints, a session's events, a socket read) and every
/// bound on how long work may take is written for a plain debug build. A sanitizer build runs the same code
/// several times slower (ThreadSanitizer about 5–15×), so `make sanitize` sets `REWIND_TEST_TIME_SCALE` and the
/// limits are multiplied by it: the waiting helpers (`ChildProcess`, `ProcessResources.settle`,
/// `DaemonHarness.waitForSession`, `RawWebSocketClient`) apply it themselves, and tests apply it to their own
/// bounds through ``seconds(_:)``. Ratios between two runs of the same build (latency within 2× of an
/// undisturbed run) are not scaled: both runs are equally slow. The speed claims themselves are checked by the
/// plain `make test` run, where the scale is 1.
///
/// The child processes the tests start inherit the variable with the rest of the environment.
///
/// Threading: immutable; usable from any thread.
package enum TestTime {
    /// The environment variable holding the factor.
    package static let variable = "REWIND_TEST_TIME_SCALE"

    /// The factor: `REWIND_TEST_TIME_SCALE` when it is a number of at least 1, otherwise 1.
    package static let scale: Double = factor(in: ProcessInfo.processInfo.environment)

    /// The factor `environment` asks for (1 when the variable is missing, not a number, or below 1).
    package static func factor(in environment: [String: String]) -> Double {
        guard let text = environment[variable], let value = Double(text), value.isFinite, value >= 1 else { return 1 }
        return value
    }

    /// `seconds` stretched by ``scale``.
    package static func seconds(_ seconds: Double) -> Double {
        seconds * scale
    }

    /// `microseconds` stretched by ``scale``, for `usleep`.
    package static func microseconds(_ microseconds: UInt32) -> UInt32 {
        UInt32(min(Double(UInt32.max), Double(microseconds) * scale))
    }

    /// The `stress` sample's options for how long it waits, after its last dispatch, for everything to reach the
    /// daemon: its default of 30 s, stretched by ``scale``.
    package static var stressDeliveryArguments: [String] {
        ["--deliver-timeout", String(seconds(30))]
    }
}
