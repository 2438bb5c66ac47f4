import RewindWire

/// Runs one input through everything that reads untrusted bytes — the JSON parser, the four protocol decoders,
/// patch reading and applying — and checks what must hold of every input: each call returns or throws its typed
/// error (the typed `throws` guarantees the type; a crash kills the process), and what is accepted survives a
/// round trip: serialize → parse gives the same value, encode → decode the same message, `patch.json` the same
/// patch, and a diff applied to its source gives its target.
///
/// Threading: stateless; safe to call from any thread.
enum FuzzTarget {
    /// The limits inputs are read with: the defaults, and a small byte limit so that `too_big` is reached too.
    static let limits: [JSONLimits] = [.default, JSONLimits(maxDepth: 16, maxBytes: 4_096)]

    /// Documents every patch found in an input is also applied to, and every parsed document is diffed from.
    static let documents: [JSONValue] = [
        .null, .array([]), .object(JSONObject()), ["count": 0], ["a": ["b": [1, 2, 3]], "c": "x"],
        ["items": ["x", "y", "z"], "count": 3, "nested": ["deep": [["k": nil]]]],
    ]

    /// Every property of `input` that does not hold, described for people; empty when all hold.
    static func problems(_ input: [UInt8]) -> [String] {
        var coverage = FuzzCoverage()
        return problems(input, coverage: &coverage)
    }

    /// Every property of `input` that does not hold, counting in `coverage` which readers accepted it.
    static func problems(_ input: [UInt8], coverage: inout FuzzCoverage) -> [String] {
        var problems: [String] = []
        for limits in limits {
            checkParse(input, limits, &problems)
            var counted = FuzzCoverage()
            checkDecoders(input, limits, &problems, &counted)
            if limits == .default { coverage.add(decodersOf: counted) }
        }
        checkPatches(input, &problems, &coverage)
        return problems
    }

    private static func checkParse(_ input: [UInt8], _ limits: JSONLimits, _ problems: inout [String]) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: input, limits: limits)
        } catch {
            if error.offset < 0 || error.offset > input.count {
                problems.append("parse error offset \(error.offset) outside 0...\(input.count): \(error)")
            }
            return
        }
        let text = value.serializedBytes()
        do {
            let again = try JSONValue(parsing: text, limits: JSONLimits(maxDepth: limits.maxDepth,
                                                                        maxBytes: .max))
            if again != value {
                problems.append("serialize → parse changed the value: \(String(decoding: text.prefix(200), as: UTF8.self))")
            }
        } catch {
            problems.append("serialized text does not parse again (\(error)): \(String(decoding: text.prefix(200), as: UTF8.self))")
        }
    }

    private static func checkDecoders(_ input: [UInt8], _ limits: JSONLimits, _ problems: inout [String],
                                      _ coverage: inout FuzzCoverage) {
        if let message = try? WireCodec.decodeAppMessage(input, limits: limits) {
            coverage.appMessages += 1
            roundTrip("app message", message, WireCodec.encode(message), &problems) {
                (frame: [UInt8]) throws(WireError) in try WireCodec.decodeAppMessage(frame)
            }
        }
        if let message = try? WireCodec.decodeDaemonMessage(input, limits: limits) {
            coverage.daemonMessages += 1
            roundTrip("daemon message", message, WireCodec.encode(message), &problems) {
                (frame: [UInt8]) throws(WireError) in try WireCodec.decodeDaemonMessage(frame)
            }
        }
        if let request = try? WireCodec.decodeControlRequest(input, limits: limits) {
            coverage.controlRequests += 1
            roundTrip("control request", request, WireCodec.encode(request), &problems) {
                (frame: [UInt8]) throws(WireError) in try WireCodec.decodeControlRequest(frame)
            }
        }
        if let response = try? WireCodec.decodeControlResponse(input, limits: limits) {
            coverage.controlResponses += 1
            roundTrip("control response", response, WireCodec.encode(response), &problems) {
                (frame: [UInt8]) throws(WireError) in try WireCodec.decodeControlResponse(frame)
            }
        }
    }

    private static func roundTrip<M: Equatable>(_ what: String, _ message: M, _ encoded: [UInt8],
                                                _ problems: inout [String],
                                                decode: ([UInt8]) throws(WireError) -> M) {
        do {
            let again = try decode(encoded)
            if again != message {
                problems.append("\(what) changed by encode → decode: \(String(decoding: encoded.prefix(200), as: UTF8.self))")
            }
        } catch {
            problems.append("\(what) encoded by WireCodec does not decode again (\(error))")
        }
    }

    private static func checkPatches(_ input: [UInt8], _ problems: inout [String], _ coverage: inout FuzzCoverage) {
        guard let value = try? JSONValue(parsing: input) else { return }
        coverage.parsed += 1
        // A document and a patch: {"doc": …, "patch": […]}, as the patch seeds are written.
        if let doc = value["doc"], let patchValue = value["patch"] {
            checkPatch(patchValue, on: [doc], &problems, &coverage)
        }
        checkPatch(value, on: documents, &problems, &coverage)
        for document in documents.prefix(3) + [value["doc"] ?? .null] {
            let patch = JSONPatch.diff(from: document, to: value)
            do {
                let result = try patch.apply(to: document)
                if result != value {
                    problems.append("diff applied to its source does not give its target: \(patch)")
                }
            } catch {
                problems.append("diff does not apply to its own source (\(error)): \(patch)")
            }
        }
    }

    private static func checkPatch(_ value: JSONValue, on documents: [JSONValue], _ problems: inout [String],
                                   _ coverage: inout FuzzCoverage) {
        guard let patch = try? JSONPatch(json: value) else { return }
        coverage.patches += 1
        var appliedOnce = false
        defer { if appliedOnce { coverage.appliedPatches += 1 } }
        do {
            let again = try JSONPatch(json: patch.json)
            if again != patch {
                problems.append("patch changed by json → read: \(patch)")
            }
        } catch {
            problems.append("patch.json does not read again (\(error)): \(patch)")
        }
        for document in documents {
            var inPlace = document
            let copied = Result { () throws(JSONPatchError) -> JSONValue in try patch.apply(to: document) }
            let applied = Result { () throws(JSONPatchError) in try patch.apply(to: &inPlace) }
            switch (copied, applied) {
            case (.success(let result), .success):
                appliedOnce = true
                if result != inPlace {
                    problems.append("patch applied in place and to a copy differ: \(patch)")
                }
            case (.failure, .failure):
                break
            default:
                problems.append("patch applies in place or to a copy but not both: \(patch)")
            }
            // With a size budget: the same outcome when the budget is ample, and the size kept exact; with a
            // small budget, either it applies within it or the document and its size are left as they were.
            var budgeted = document
            var size = document.compactSize()
            let withBudget = Result { () throws(JSONPatchError) in
                try patch.apply(to: &budgeted, size: &size, maxSize: Int.max / 2)
            }
            switch (applied, withBudget) {
            case (.success, .success):
                if budgeted != inPlace { problems.append("patch applied with a budget differs: \(patch)") }
                if size != budgeted.compactSize() {
                    problems.append("budgeted size \(size) is not compactSize \(budgeted.compactSize()): \(patch)")
                }
            case (.failure, .failure):
                break
            default:
                problems.append("patch applies with an ample budget or without one but not both: \(patch)")
            }
            var tight = document
            var tightSize = document.compactSize()
            let small = tightSize + 16
            if (try? patch.apply(to: &tight, size: &tightSize, maxSize: small)) != nil {
                if tightSize > small || tightSize != tight.compactSize() {
                    problems.append("a small budget was exceeded or miscounted (\(tightSize) > \(small)): \(patch)")
                }
            } else if tight != document || tightSize != document.compactSize() {
                problems.append("a refused patch did not restore the document and its size: \(patch)")
            }
        }
    }
}
