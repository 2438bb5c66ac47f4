import RewindWire
import Testing

/// The wire forms of skip, branch flips and paced replays: `replay` with `reset: false`, and the control commands
/// `skip`, `branch`, `recordedActions`, `replayActions`.
@Suite("Time travel protocol")
struct TimeTravelProtocolTests {
    @Test("a replay that continues from the app's state round-trips, carries reset false and a null state")
    func replayWithoutReset() throws {
        let message = DaemonMessage.replay(Replay(id: "r2", state: .null, actions: [["increment": [:]]], reset: false))
        let frame = WireCodec.encode(message)
        #expect(try WireCodec.decodeDaemonMessage(frame) == message)
        let json = try JSONValue(parsing: frame)
        #expect(json["reset"] == false)
        #expect(json["state"] == .null)
    }

    @Test("a replay without a reset member resets, and its state is required")
    func replayResetsByDefault() throws {
        let decoded = try WireCodec.decodeDaemonMessage(Array(#"{"type":"replay","id":"r","state":{"count":1},"actions":[]}"#.utf8))
        #expect(decoded == .replay(Replay(id: "r", state: ["count": 1], actions: [])))
        #expect(throws: WireError.self) {
            try WireCodec.decodeDaemonMessage(Array(#"{"type":"replay","id":"r","actions":[]}"#.utf8))
        }
        let continued = try WireCodec.decodeDaemonMessage(Array(#"{"type":"replay","id":"r","actions":[],"reset":false}"#.utf8))
        #expect(continued == .replay(Replay(id: "r", state: .null, actions: [], reset: false)))
    }

    static let requests: [ControlRequest] = [
        ControlRequest(id: "1", command: .skip(session: "s1", seq: 4)),
        ControlRequest(id: "2", command: .branch(session: "s1", branch: 0)),
        ControlRequest(id: "3", command: .recordedActions(session: "s0", fromSeq: 2, toSeq: 9)),
        ControlRequest(id: "4", command: .recordedActions(session: "s0", fromSeq: nil, toSeq: nil)),
        ControlRequest(id: "4b", command: .recordedActions(session: "s0", fromSeq: 10_001, toSeq: nil, withState: false)),
        ControlRequest(id: "5", command: .replayActions(target: "s1", state: ["count": 0], actions: [])),
        ControlRequest(id: "6", command: .replayActions(target: "s1", state: nil, actions: [["add": ["_0": 2]]])),
        ControlRequest(id: "7", command: .replayActions(target: "s1", state: .null, actions: [])),
    ]

    @Test("every time-travel request round-trips", arguments: requests)
    func requestRoundTrip(request: ControlRequest) throws {
        #expect(try WireCodec.decodeControlRequest(WireCodec.encode(request)) == request)
    }

    @Test("skip and branch name their missing arguments")
    func missingArguments() throws {
        for (frame, field) in [(#"{"type":"request","id":"1","command":"skip","args":{"session":"s1"}}"#, "seq"),
                               (#"{"type":"request","id":"2","command":"branch","args":{"session":"s1"}}"#, "branch"),
                               (#"{"type":"request","id":"3","command":"replayActions","args":{"target":"s1"}}"#, "actions")] {
            do {
                _ = try WireCodec.decodeControlRequest(Array(frame.utf8))
                Issue.record("\(frame) was accepted")
            } catch {
                #expect(error.code == .missingField)
                #expect(error.field?.hasSuffix(field) == true, "field \(error.field ?? "none")")
            }
        }
    }
}
