import Testing
import RewindWire

/// The `action` and `batch` frames are written straight into bytes; they must be the bytes of the message's JSON tree.
@Suite("Action and batch frames written directly")
struct EventFrameWriterTests {
    @Test("an action frame is the serialization of its JSON tree, for every shape of event")
    func actionFramesMatchTheTree() throws {
        var documents = RandomDocuments(rng: SeededGenerator(seed: 31))
        for round in 0..<500 {
            let event = Self.event(seq: UInt64(round), &documents)
            let message = AppMessage.action(event)
            #expect(WireCodec.encode(message) == message.json.serializedBytes(), "round \(round)")
            // And it reads back as the same event.
            #expect(try WireCodec.decodeAppMessage(WireCodec.encode(message)) == message)
        }
    }

    @Test("numbers outside what a reader accepts are written as the tree writes them")
    func extremeNumbersMatchTheTree() {
        var documents = RandomDocuments(rng: SeededGenerator(seed: 3))
        for (seq, time) in [(UInt64.max, 1e21), (UInt64(Int64.max) + 1, -0.0), (0, Double.nan), (1 << 53, .infinity)] {
            var event = Self.event(seq: 1, &documents)
            event.seq = seq
            event.time = time
            event.reducerMicros = time
            for message in [AppMessage.action(event), .batch([event, event])] {
                #expect(WireCodec.encode(message) == message.json.serializedBytes())
            }
        }
    }

    @Test("a batch frame is the serialization of its JSON tree")
    func batchFramesMatchTheTree() throws {
        var documents = RandomDocuments(rng: SeededGenerator(seed: 7))
        for round in 0..<100 {
            let events = (0..<Int.random(in: 1...12, using: &documents.rng)).map {
                Self.event(seq: UInt64(round * 100 + $0), &documents)
            }
            let message = AppMessage.batch(events)
            #expect(WireCodec.encode(message) == message.json.serializedBytes(), "round \(round)")
            #expect(try WireCodec.decodeAppMessage(WireCodec.encode(message)) == message)
        }
    }

    @Test("a patch read from JSON is written as it was read, unknown members included")
    func readPatchesKeepTheirText() throws {
        let patchText = #"[{"op":"replace","path":"/a~1b/~0","value":1,"note":"kept"}]"#
        let patch = try JSONPatch(json: try JSONValue(parsing: Array(patchText.utf8)))
        let message = AppMessage.action(ActionEvent(seq: 1, time: 2, action: ActionPayload(type: "t", payload: .null),
                                                    patch: patch))
        let text = String(decoding: WireCodec.encode(message), as: UTF8.self)
        #expect(text.contains(patchText))
        #expect(WireCodec.encode(message) == message.json.serializedBytes())
    }

    /// An event with every optional member present or not, labels implied by the payload or not, every operation.
    static func event(seq: UInt64, _ documents: inout RandomDocuments) -> ActionEvent {
        let label = documents.key()
        let payload: JSONValue
        switch Int.random(in: 0..<4, using: &documents.rng) {
        case 0: payload = .object(JSONObject([(label, documents.value(depth: 2))]))  // label implied by the member
        case 1: payload = .string(label)                                              // label implied by the string
        case 2: payload = .null
        default: payload = documents.value(depth: 3)
        }
        var operations: [JSONPatchOperation] = []
        for _ in 0..<Int.random(in: 0...4, using: &documents.rng) {
            let path = JSONPointer(tokens: (0..<Int.random(in: 0...3, using: &documents.rng)).map { _ in documents.key() })
            let from = JSONPointer(tokens: [documents.key()])
            switch Int.random(in: 0..<6, using: &documents.rng) {
            case 0: operations.append(.add(path: path, value: documents.value(depth: 2)))
            case 1: operations.append(.remove(path: path))
            case 2: operations.append(.replace(path: path, value: documents.scalar()))
            case 3: operations.append(.move(from: from, path: path))
            case 4: operations.append(.copy(from: from, path: path))
            default: operations.append(.test(path: path, value: documents.scalar()))
            }
        }
        let times: [Double] = [0, 1_700_000_000.125, 1e-7, 123.456789, 253_402_300_799]
        let source: EventSource? = switch Int.random(in: 0..<3, using: &documents.rng) {
        case 0: nil
        case 1: .location("File \"q\".swift:\(seq)")
        default: .reference(Int(seq % 50))
        }
        return ActionEvent(
            seq: seq, time: times.randomElement(using: &documents.rng)!,
            action: ActionPayload(type: label, payload: payload), patch: JSONPatch(operations),
            reducerMicros: Bool.random(using: &documents.rng) ? nil : Double.random(in: 0...1000, using: &documents.rng),
            source: source)
    }
}
