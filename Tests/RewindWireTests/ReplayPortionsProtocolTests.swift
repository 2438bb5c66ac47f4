import RewindWire
import Testing

/// The wire form of a `replay` answered in portions (PROTOCOL.md, `replay` and `result`): the command's
/// `portions` member, and the `from`, `patches`, `more` and `replayed` members of its `result` messages, with the
/// forms older peers send and read.
@Suite("Replay answered in portions")
struct ReplayPortionsProtocolTests {
    @Test("a replay asking for portions round-trips and says so; without the member it asks for none")
    func replayAsksForPortions() throws {
        let message = DaemonMessage.replay(Replay(id: "r", state: ["count": 0], actions: [["increment": [:]]],
                                                  portions: true))
        let frame = WireCodec.encode(message)
        #expect(try JSONValue(parsing: frame)["portions"] == true)
        #expect(try WireCodec.decodeDaemonMessage(frame) == message)
        let old = try WireCodec.decodeDaemonMessage(Array(#"{"type":"replay","id":"r","state":null,"actions":[]}"#.utf8))
        #expect(old == .replay(Replay(id: "r", state: .null, actions: [])))
        #expect(!WireCodec.encode(old).contains(Array("portions".utf8)))
    }

    @Test("the portions of an answer round-trip: from and more in the first, replayed in the last")
    func portionsRoundTrip() throws {
        let first = CommandResult(id: "c1", ok: true, from: ["count": 0],
                                  patches: [JSONPatch.diff(from: ["count": 0], to: ["count": 1])], more: true)
        let last = CommandResult(id: "c1", ok: true, patches: [JSONPatch.diff(from: ["count": 1], to: ["count": 2])],
                                 replayed: 2)
        for portion in [first, last] {
            #expect(try WireCodec.decodeAppMessage(WireCodec.encode(AppMessage.result(portion))) == .result(portion))
        }
        let lastJSON = try JSONValue(parsing: WireCodec.encode(AppMessage.result(last)))
        #expect(lastJSON["more"] == nil as JSONValue?)
        #expect(lastJSON["replayed"] == 2)
        // An older app's single answer still decodes, with no portion members.
        let single = try WireCodec.decodeAppMessage(Array(#"{"type":"result","id":"c2","ok":true,"states":[{"count":1}]}"#.utf8))
        #expect(single == .result(CommandResult(id: "c2", ok: true, states: [["count": 1]])))
    }

    @Test("a portion whose patch is not a JSON Patch, or with a negative count, names the field")
    func badPortionsNameTheField() {
        let cases: [(String, String)] = [
            (#"{"type":"result","id":"c","ok":true,"patches":[[{"op":"replace","path":"/a","value":1}],[{"op":"jump"}]],"more":true}"#,
             "result.patches[1]"),
            (#"{"type":"result","id":"c","ok":true,"patches":[],"replayed":-1}"#, "result.replayed"),
            (#"{"type":"result","id":"c","ok":true,"patches":[],"more":"yes"}"#, "result.more"),
        ]
        for (frame, field) in cases {
            do {
                _ = try WireCodec.decodeAppMessage(Array(frame.utf8))
                Issue.record("accepted \(frame)")
            } catch {
                #expect(error.field == field, "\(frame): \(error)")
            }
        }
    }
}
