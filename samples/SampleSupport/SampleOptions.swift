/// The command-line options every sample understands (see ``SampleRunner``), read by
/// ``SampleDescription/options(_:)``. A value; any thread.
package struct SampleOptions: Sendable {
    /// `--help`: print the usage and exit.
    package private(set) var help = false
    /// `--script FILE`: run the commands in FILE, then exit.
    package private(set) var script: String?
    /// `--stay` (with `--script`): keep serving the daemon's commands after the script.
    package private(set) var stay = false
    /// `--demo`: loop the demo sequence at a human pace.
    package private(set) var demo = false
    /// `--demo-loops N`: stop the demo after N loops (nil: loop until stopped).
    package private(set) var demoLoops: Int?
    /// `--pace S`: seconds between the demo's commands.
    package private(set) var pace = 0.8

    /// Parses the arguments after the program name.
    init(_ arguments: [String]) throws(SampleError) {
        var rest = arguments[...]
        func value(for option: String) throws(SampleError) -> String {
            guard let next = rest.popFirst() else { throw SampleError("\(option) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": help = true
            case "--script": script = try value(for: argument)
            case "--stay": stay = true
            case "--demo": demo = true
            case "--demo-loops":
                let text = try value(for: argument)
                guard let loops = Int(text), loops > 0 else { throw SampleError("--demo-loops takes a positive number") }
                demoLoops = loops
            case "--pace":
                let text = try value(for: argument)
                guard let pace = Double(text), pace >= 0 else { throw SampleError("--pace takes seconds, e.g. 0.5") }
                self.pace = pace
            default:
                throw SampleError("unknown option '\(argument)'")
            }
        }
        if script != nil && demo { throw SampleError("--script and --demo cannot be combined") }
        if stay && script == nil { throw SampleError("--stay goes with --script") }
    }
}
