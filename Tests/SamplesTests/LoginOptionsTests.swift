import Testing
@testable import login

@Suite("login sample: its own command-line options")
struct LoginOptionsTests {
    @Test("its options are taken out, the runner's are left in order")
    func extraction() throws {
        var arguments = ["--script", "f.txt", "--latency", "250", "--stay", "--failure-rate", "0.25", "--seed", "9"]
        let options = try LoginOptions(extractingFrom: &arguments)
        #expect(arguments == ["--script", "f.txt", "--stay"])
        #expect(options.latency == .milliseconds(250))
        #expect(options.failureRate == 0.25)
        #expect(options.seed == 9)
    }

    @Test("defaults: 600 ms, no failures, seed 1")
    func defaults() throws {
        var arguments = ["--demo"]
        let options = try LoginOptions(extractingFrom: &arguments)
        #expect(arguments == ["--demo"])
        #expect(options.latency == .milliseconds(600))
        #expect(options.failureRate == 0)
        #expect(options.seed == 1)
    }

    @Test("missing or out-of-range values are refused")
    func badValues() {
        for bad in [["--latency"], ["--latency", "-5"], ["--latency", "soon"], ["--failure-rate", "1.5"],
                    ["--failure-rate", "x"], ["--seed", "-1"], ["--seed"]] {
            var arguments = bad
            #expect(throws: (any Error).self, "\(bad)") { try LoginOptions(extractingFrom: &arguments) }
        }
    }
}
