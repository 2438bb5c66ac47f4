import Foundation

/// `stress`'s command line.
struct StressOptions {
    var count = 10_000
    var rate = 0.0
    var duration: Double?
    var stateBytes = 1_000
    var changeBytes = 20
    var seed: UInt64 = 1
    var mix = StressMix.mixed
    var layout = StressLayout.flat
    var printState = false
    var stay = false
    var deliverTimeout = 30.0

    static let usage = """
        stress — a load generator for Rewind: dispatches actions into a store with the inspector attached, and \
        prints what it sent.

        Usage: stress [options]
          --count N          actions to dispatch (default 10000; ignored with --duration)
          --duration S       dispatch for S seconds instead of a count
          --rate R           actions per second (default 0: as fast as possible)
          --state-bytes B    approximate size of the state's JSON (default 1000)
          --change-bytes C   size of the text a 'write' action puts in (default 20)
          --mix touch|mixed  only one-field changes, or changes, writes, appends and removals (default mixed)
          --layout flat|sections  the items in one array, or in sections of 100 (default flat)
          --seed S           random seed (default 1): the same seed repeats the same run
          --print-state      print the final state as one line of JSON on standard output
          --deliver-timeout S  after the last dispatch, wait up to S seconds for everything to reach the daemon
                             (default 30)
          --stay             keep running (serving the daemon's commands) until standard input closes
          --help

        On standard error it reports one JSON line: actions sent, seconds, rate, dispatch latency (p50, p99,
        max, in microseconds), peak resident memory (KiB), and what the session holds of the actions sent:
          withState     sent with the patch of their state
          withoutState  sent without it (inside a coalesced 'dropped' range: their states are unknown)
          lost          never recorded: dropped by the inspector's full outbox, or sent and lost with a connection
                        (the session counts them in 'lost' rows, and the daemon's acknowledgments say how many)
          handedOver    true when every action was accounted for by the daemon (committed to its record, or counted
                        lost there) within --deliver-timeout
          delivered     true when every action sent is committed to the daemon's record: handed over, none lost
        Environment: REWIND_URL, REWIND_TOKEN, REWIND_DISABLED=1, REWIND_OUTBOX_BYTES (the inspector's memory
        budget), REWIND_EXIT_FLUSH_SECONDS.
        """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw StressUsageError("\(name) needs a value") }
            return next
        }
        func number<T: LosslessStringConvertible>(_ name: String) throws -> T {
            let text = try value(name)
            guard let parsed = T(text) else { throw StressUsageError("\(name): '\(text)' is not a number") }
            return parsed
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--count": count = try number(argument)
            case "--duration": duration = try number(argument)
            case "--rate": rate = try number(argument)
            case "--state-bytes": stateBytes = try number(argument)
            case "--change-bytes": changeBytes = try number(argument)
            case "--seed": seed = try number(argument)
            case "--mix":
                let text = try value(argument)
                guard let parsed = StressMix(rawValue: text) else {
                    throw StressUsageError("--mix takes 'touch' or 'mixed', not '\(text)'")
                }
                mix = parsed
            case "--layout":
                let text = try value(argument)
                guard let parsed = StressLayout(rawValue: text) else {
                    throw StressUsageError("--layout takes 'flat' or 'sections', not '\(text)'")
                }
                layout = parsed
            case "--print-state": printState = true
            case "--stay": stay = true
            case "--deliver-timeout": deliverTimeout = try number(argument)
            case "-h", "--help": throw StressUsageError(nil)
            default: throw StressUsageError("unknown option '\(argument)'")
            }
        }
    }
}

/// A bad command line (or `--help`, with no message).
struct StressUsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}
