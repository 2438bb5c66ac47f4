import Testing
import RewindWire

@Suite("Protocol messages and codec")
struct WireCodecTests {
    static let patch = JSONPatch([.replace(path: JSONPointer(tokens: ["count"]), value: 2)])

    static let appMessages: [AppMessage] = [
        .hello(Hello(app: AppIdentity(name: "todo", instance: "mac:4242:1700000000"), state: ["todos": [], "filter": "all"],
                     stateType: "TodoState", token: "s3cret", capabilities: ["jump", "dispatch", "replay"])),
        .hello(Hello(app: AppIdentity(name: "counter", instance: "x"), state: .null)),
        .action(ActionEvent(seq: 1, time: 1_700_000_000.25, action: ActionPayload(type: "counter/increment", payload: ["increment": [:]]),
                            patch: patch, reducerMicros: 3.5)),
        .batch([
            ActionEvent(seq: 2, time: 1.5, action: ActionPayload(type: "a", payload: .null), patch: JSONPatch()),
            ActionEvent(seq: 3, time: 2.5, action: ActionPayload(type: "b", payload: ["x": 1]), patch: patch),
        ]),
        .snapshot(Snapshot(seq: 3, state: ["count": 2], reason: "resync")),
        .dropped(Dropped(from: 4, to: 9)),
        .result(CommandResult(id: "c1", ok: true, states: [["count": 1], ["count": 2]], state: ["count": 2])),
        .result(CommandResult(id: "c2", ok: false, error: "could not decode the action")),
    ]

    static let daemonMessages: [DaemonMessage] = [
        .welcome(Welcome(session: "20260101-120000-todo-1", resumed: true)),
        .jump(Jump(id: "j1", state: ["count": 5])),
        .dispatch(DispatchCommand(id: "d1", action: ["increment": [:]])),
        .replay(Replay(id: "r1", state: ["count": 0], actions: [["increment": [:]], ["reset": [:]]])),
        .resync(Resync(reason: "seq gap: expected 5, got 7")),
        .error(WireError(code: .missingField, message: "action.seq", field: "action.seq")),
    ]

    @Test("every app message round-trips through a frame", arguments: appMessages)
    func appRoundTrip(message: AppMessage) throws {
        let frame = WireCodec.encode(message)
        #expect(try WireCodec.decodeAppMessage(frame) == message)
        #expect(frame.starts(with: Array("{\"type\":\"\(message.typeName)\"".utf8)))
    }

    @Test("every daemon message round-trips through a frame", arguments: daemonMessages)
    func daemonRoundTrip(message: DaemonMessage) throws {
        let frame = WireCodec.encode(message)
        #expect(try WireCodec.decodeDaemonMessage(frame) == message)
    }

    @Test("the documented action frame decodes as written")
    func documentedAction() throws {
        let text = #"""
        {"type":"action","seq":1,"time":1700000000.25,"action":{"type":"counter/increment","payload":{"increment":{}}},
         "patch":[{"op":"replace","path":"/count","value":2}],"reducerMicros":3.5}
        """#
        let message = try WireCodec.decodeAppMessage(Array(text.utf8))
        #expect(message == WireCodecTests.appMessages[2])
        #expect(String(decoding: WireCodec.encode(message), as: UTF8.self)
            == #"{"type":"action","seq":1,"time":1700000000.25,"action":{"type":"counter/increment","payload":{"increment":{}}},"patch":[{"op":"replace","path":"/count","value":2}],"reducerMicros":3.5}"#)
    }

    @Test("an action's label is left out when the payload says it, and read back from the payload",
          arguments: [
            (ActionPayload(type: "touch", payload: ["touch": ["item": 4]]), #"{"payload":{"touch":{"item":4}}}"#),
            (ActionPayload(type: "reset", payload: "reset"), #"{"payload":"reset"}"#),
            (ActionPayload(type: "todo/add", payload: ["add": ["title": "milk"]]),
             #"{"type":"todo/add","payload":{"add":{"title":"milk"}}}"#),
            (ActionPayload(type: "pair", payload: ["a": 1, "b": 2]), #"{"type":"pair","payload":{"a":1,"b":2}}"#),
            (ActionPayload(type: "tick", payload: .null), #"{"type":"tick","payload":null}"#),
          ])
    func impliedLabel(action: ActionPayload, json: String) throws {
        let message = AppMessage.action(ActionEvent(seq: 1, time: 2, action: action, patch: JSONPatch()))
        let frame = String(decoding: WireCodec.encode(message), as: UTF8.self)
        #expect(frame.contains(#""action":\#(json)"#), "\(frame)")
        #expect(try WireCodec.decodeAppMessage(Array(frame.utf8)) == message)
    }

    private func decodeError(_ text: String) -> WireError? {
        do {
            _ = try WireCodec.decodeAppMessage(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("decode errors name the field", arguments: [
        (#"{"type":"action","time":1,"action":{"type":"a"},"patch":[]}"#, WireErrorCode.missingField, "action.seq"),
        (#"{"type":"action","seq":"1","time":1,"action":{"type":"a"},"patch":[]}"#, .badField, "action.seq"),
        (#"{"type":"action","seq":-1,"time":1,"action":{"type":"a"},"patch":[]}"#, .badField, "action.seq"),
        (#"{"type":"action","seq":1,"time":1,"action":{},"patch":[]}"#, .missingField, "action.action.type"),
        (#"{"type":"action","seq":1,"time":1,"action":{"type":"a"},"patch":[{"op":"nope","path":""}]}"#, .badField, "action.patch"),
        (#"{"type":"batch","events":[{"seq":1,"time":1,"action":{"type":"a"},"patch":[]},{"seq":2,"action":{"type":"a"},"patch":[]}]}"#, .missingField, "batch.events[1].time"),
        (#"{"type":"hello","app":{"name":"x","instance":"y"},"state":{}}"#, .missingField, "hello.protocol"),
        (#"{"type":"hello","protocol":1,"app":{"name":"x"},"state":{}}"#, .missingField, "hello.app.instance"),
        (#"{"type":"hello","protocol":1,"app":{"name":"x","instance":"y"}}"#, .missingField, "hello.state"),
        (#"{"type":"hello","protocol":1,"app":{"name":"x","instance":"y"},"state":1,"capabilities":[1]}"#, .badField, "hello.capabilities[0]"),
        (#"{"type":"dropped","from":5,"to":4}"#, .badField, "dropped.to"),
        (#"{"type":"batch","events":[]}"#, .badField, "batch.events"),
        (#"{"seq":1}"#, .missingField, "type"),
        (#"{"type":7}"#, .badField, "type"),
    ])
    func fieldErrors(text: String, code: WireErrorCode, field: String) {
        let error = decodeError(text)
        #expect(error?.code == code, "\(text): \(String(describing: error))")
        #expect(error?.field == field, "\(text): \(String(describing: error))")
        #expect(error?.description.hasPrefix("\(code.rawValue): \(field)") == true, "\(String(describing: error))")
    }

    @Test("unknown fields are ignored; unknown types and newer protocols are refused")
    func compatibility() throws {
        let extra = #"{"type":"dropped","from":1,"to":2,"futureField":{"x":[1]}}"#
        #expect(try WireCodec.decodeAppMessage(Array(extra.utf8)) == .dropped(Dropped(from: 1, to: 2)))
        #expect(decodeError(#"{"type":"teleport"}"#)?.code == .unknownType)
        #expect(decodeError(#"{"type":"hello","protocol":3,"app":{"name":"x","instance":"y"},"state":{}}"#)?.code == .unsupportedProtocol)
        #expect(try WireCodec.decodeAppMessage(Array(#"{"type":"hello","protocol":1,"app":{"name":"x","instance":"y"},"state":{}}"#.utf8))
            == .hello(Hello(protocolVersion: 1, app: AppIdentity(name: "x", instance: "y"), state: [:])),
            "protocol 1 apps are still spoken with")
        #expect(try WireCodec.decodeDaemonMessage(Array(#"{"type":"resync"}"#.utf8)) == .resync(Resync(reason: "")))
    }

    @Test("JSON failures map to their codes and close codes")
    func jsonFailures() {
        #expect(decodeError("{\"type\":")?.code == .badJSON)
        #expect(decodeError("[1]")?.code == .badJSON)
        do {
            _ = try WireCodec.decodeAppMessage([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])
            Issue.record("expected bad_utf8")
        } catch {
            #expect(error.code == .badUTF8)
            #expect(error.message.contains("at byte 2"))
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(decodeError(deep)?.code == .tooDeep)
        do {
            _ = try WireCodec.decodeAppMessage(Array("{\"type\":\"x\"}".utf8), limits: JSONLimits(maxBytes: 4))
        } catch {
            #expect(error.code == .tooBig)
        }
        #expect(WireErrorCode.badJSON.closeCode == 1007)
        #expect(WireErrorCode.badUTF8.closeCode == 1007)
        #expect(WireErrorCode.tooBig.closeCode == 1009)
        #expect(WireErrorCode.unsupportedProtocol.closeCode == 1002)
        #expect(WireErrorCode.unauthorized.closeCode == 1008)
        #expect(WireErrorCode.outOfOrder.closeCode == nil)
        #expect(Set(WireErrorCode.allCases.map(\.rawValue)).count == WireErrorCode.allCases.count)
    }

    @Test("an error with an unknown code still decodes")
    func unknownErrorCode() throws {
        let message = try WireCodec.decodeDaemonMessage(Array(#"{"type":"error","code":"rate_limited","message":"slow down"}"#.utf8))
        #expect(message == .error(WireError(code: .internal, message: "rate_limited: slow down")))
    }
}

@Suite("Control protocol")
struct ControlProtocolTests {
    static let requests: [ControlRequest] = [
        ControlRequest(id: "1", command: .sessions, token: "s3cret"),
        ControlRequest(id: "2", command: .tail(session: "s1")),
        ControlRequest(id: "3", command: .tail(session: nil)),
        ControlRequest(id: "4", command: .untail),
        ControlRequest(id: "5", command: .jump(session: "s1", seq: 42)),
        ControlRequest(id: "6", command: .dispatch(session: "s1", action: ["increment": [:]])),
        ControlRequest(id: "7", command: .replay(session: "s0", target: "s1", fromSeq: 3, toSeq: 9)),
        ControlRequest(id: "8", command: .replay(session: "s0", target: nil, fromSeq: nil, toSeq: nil)),
        ControlRequest(id: "9", command: .other(name: "export", args: ["format": "jsonl"])),
    ]

    @Test("every request round-trips", arguments: requests)
    func requestRoundTrip(request: ControlRequest) throws {
        #expect(try WireCodec.decodeControlRequest(WireCodec.encode(request)) == request)
    }

    @Test("responses and events round-trip")
    func responses() throws {
        let info = ControlSessionInfo(session: "s1", app: AppIdentity(name: "todo", instance: "i"), live: true,
                                      startedAt: 1_700_000_000, lastSeq: 12, stateType: "TodoState")
        let all: [ControlResponse] = [
            .response(ControlReply(id: "1", result: [info.json])),
            .response(ControlReply(id: "2", error: WireError(code: .unknownSession, message: "no session s9"))),
            .event(ControlEvent(session: "s1", message: .dropped(Dropped(from: 1, to: 3)))),
            .event(.ended(session: "s1")),
        ]
        for response in all {
            #expect(try WireCodec.decodeControlResponse(WireCodec.encode(response)) == response)
        }
        #expect(try ControlSessionInfo(json: info.json) == info)
        var offering = info
        offering.capabilities = ["jump", "batch"]
        #expect(offering.json["capabilities"] == ["jump", "batch"])
        #expect(try ControlSessionInfo(json: offering.json) == offering)
        if case .event(let event) = all[2] { #expect(event.appMessage == .dropped(Dropped(from: 1, to: 3))) }
        #expect(ControlEvent.ended(session: "s1").appMessage == nil)
    }

    @Test("the documented request frame decodes, and bad arguments name the field")
    func documented() throws {
        let text = #"{"type":"request","id":"5","command":"jump","args":{"session":"s1","seq":42},"token":"s3cret"}"#
        #expect(try WireCodec.decodeControlRequest(Array(text.utf8))
            == ControlRequest(id: "5", command: .jump(session: "s1", seq: 42), token: "s3cret"))
        do {
            _ = try WireCodec.decodeControlRequest(Array(#"{"type":"request","id":"5","command":"jump","args":{"session":"s1"}}"#.utf8))
            Issue.record("expected missing_field")
        } catch {
            #expect(error.code == .missingField)
            #expect(error.field == "request.args.seq")
        }
        #expect(try WireCodec.decodeControlRequest(Array(#"{"type":"request","id":"1","command":"sessions"}"#.utf8)).command == .sessions)
    }
}
