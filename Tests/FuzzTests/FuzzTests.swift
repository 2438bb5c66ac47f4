import Foundation
import RewindWire
import Testing

@Suite("Fuzzing the parser, the protocol decoders and patch apply")
struct FuzzTests {
    @Test("every corpus entry decodes or gives a typed error, and what is accepted survives a round trip")
    func corpusEntries() throws {
        let corpus = try FuzzCorpus()
        #expect(corpus.entries.count >= 20)
        for entry in corpus.entries {
            let problems = FuzzTarget.problems(entry.bytes)
            #expect(problems.isEmpty, "\(entry.name): \(problems.joined(separator: "; "))")
        }
    }

    @Test("mutated inputs never crash or hang: each returns or throws its typed error, and accepted ones round-trip")
    func mutatedInputs() throws {
        let settings = FuzzSettings()
        let corpus = try FuzzCorpus()
        var mutator = FuzzMutator(seeds: corpus.entries.map(\.bytes), seed: settings.seed)
        let clock = ContinuousClock()
        let start = clock.now
        var runs = 0
        var findings = 0
        var coverage = FuzzCoverage()
        while runs < settings.iterations, (clock.now - start) < .seconds(settings.seconds) {
            let input = mutator.next()
            runs += 1
            if let path = settings.lastInputPath {
                try Data(input).write(to: URL(fileURLWithPath: path))
            }
            let inputStart = clock.now
            let problems = FuzzTarget.problems(input, coverage: &coverage)
            let elapsed = clock.now - inputStart
            var complaints = problems
            if elapsed > .seconds(FuzzSettings.hangThreshold) {
                complaints.append("took \(elapsed) (over \(FuzzSettings.hangThreshold) s: a hang)")
            }
            guard !complaints.isEmpty else { continue }
            findings += 1
            var where_ = "seed \(settings.seed), input \(runs)"
            if settings.isLongPass {
                where_ += ", saved as " + (try FuzzCorpus.save(input, prefix: problems.isEmpty ? "slow" : "finding"))
            }
            if findings <= 10 {
                let shown = String(decoding: input.prefix(300), as: UTF8.self)
                Issue.record("\(where_): \(complaints.joined(separator: "; ")) — input (\(input.count) bytes): \(shown)")
            }
        }
        if let path = settings.lastInputPath {  // no input stopped the process: nothing for `make fuzz` to save
            try? FileManager.default.removeItem(atPath: path)
        }
        print("fuzz: \(runs) inputs in \(clock.now - start) (seed \(settings.seed)), \(findings) findings; \(coverage)")
        #expect(runs >= min(settings.iterations, 200), "the pass ran too few inputs to mean anything")
        // Mutations that break everything would test only the first byte checks: each reader must accept some.
        for (reader, count) in [("the parser", coverage.parsed), ("decodeAppMessage", coverage.appMessages),
                                ("decodeDaemonMessage", coverage.daemonMessages),
                                ("decodeControlRequest", coverage.controlRequests),
                                ("decodeControlResponse", coverage.controlResponses),
                                ("JSONPatch(json:)", coverage.patches), ("JSONPatch.apply", coverage.appliedPatches)] {
            #expect(count * 1_000 >= runs, "\(reader) accepted only \(count) of \(runs) inputs")
        }
        #expect(findings == 0)
    }

    @Test("100,000 levels of nesting are refused as too deep, as arrays and as objects, without exhausting the stack")
    func deepNesting() {
        let depth = 100_000
        let arrays = [UInt8](repeating: 0x5B, count: depth) + [UInt8](repeating: 0x5D, count: depth)
        let objects = Array(repeating: Array(#"{"a":"#.utf8), count: depth).flatMap { $0 } + Array("1".utf8)
            + [UInt8](repeating: 0x7D, count: depth)
        for input in [arrays, objects] {
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: input) }
            do {
                _ = try WireCodec.decodeAppMessage(input)
                Issue.record("a 100,000-level document decoded")
            } catch {
                #expect(error.code == .tooDeep)
            }
            #expect(FuzzTarget.problems(input).isEmpty)
        }
    }

    @Test("invalid UTF-8 anywhere in a frame is a bad_utf8 error, not a crash or a replacement character")
    func invalidUTF8() throws {
        let frame = Array(#"{"type":"hello","protocol":1,"app":{"name":""#.utf8) + [0xC0, 0x80]
            + Array(#"","instance":"i"},"state":{}}"#.utf8)
        do {
            _ = try WireCodec.decodeAppMessage(frame)
            Issue.record("a frame with an overlong encoding decoded")
        } catch {
            #expect(error.code == .badUTF8)
        }
        for bytes: [UInt8] in [[0xFF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let input = Array(#"[""#.utf8) + bytes + Array(#""]"#.utf8)
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: input) }
        }
    }
}
