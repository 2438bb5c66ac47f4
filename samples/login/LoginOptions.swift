import SampleSupport

/// The login sample's own command-line options (the rest are ``SampleRunner``'s).
///
/// Threading: a value.
struct LoginOptions {
    /// How long the simulated API takes to answer.
    var latency: Duration = .milliseconds(600)
    /// The share of requests the simulated API fails.
    var failureRate = 0.0
    /// Chooses which requests fail.
    var seed: UInt64 = 1

    /// What `--help` says about them.
    static let help = """
          --latency MS        how long the simulated API takes to answer (default 600)
          --failure-rate P    the share of logins (0...1) failing as if the server were down (default 0)
          --seed N            which logins fail, the same on every run with the same seed (default 1)
        """

    /// Takes this sample's options out of `arguments`, leaving the others.
    init(extractingFrom arguments: inout [String]) throws(SampleError) {
        var rest: [String] = []
        var remaining = arguments[...]
        func value(for option: String) throws(SampleError) -> String {
            guard let value = remaining.popFirst() else { throw SampleError("\(option) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--latency":
                guard let milliseconds = Int(try value(for: argument)), milliseconds >= 0 else {
                    throw SampleError("--latency takes a whole number of milliseconds")
                }
                latency = .milliseconds(milliseconds)
            case "--failure-rate":
                guard let rate = Double(try value(for: argument)), (0...1).contains(rate) else {
                    throw SampleError("--failure-rate takes a number from 0 to 1")
                }
                failureRate = rate
            case "--seed":
                guard let seed = UInt64(try value(for: argument)) else {
                    throw SampleError("--seed takes a whole number")
                }
                self.seed = seed
            default:
                rest.append(argument)
            }
        }
        arguments = rest
    }
}
