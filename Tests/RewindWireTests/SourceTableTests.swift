import Testing
import RewindWire

@Suite("Source locations sent once per connection, then by number")
struct SourceTableTests {
    @Test("the sender sends a location's text the first time and its number after; the receiver reads both back")
    func senderAndReceiverAgree() throws {
        var sender = SourceTable(), receiver = SourceTable()
        let locations = ["A.swift:1", "A.swift:1", "B.swift:2", "A.swift:1", "C.swift:3", "B.swift:2"]
        let sent = locations.map { sender.encode($0) }
        #expect(sent == [.location("A.swift:1"), .reference(0), .location("B.swift:2"), .reference(0),
                         .location("C.swift:3"), .reference(1)])
        let received = try sent.map { source throws(WireError) in try receiver.resolve(source, field: "source") }
        #expect(received == locations)
        #expect(sender.count == 3 && receiver.count == 3)
    }

    @Test("a number no location was given is a bad_field naming the event's source, and numbers nothing")
    func unknownNumber() throws {
        var receiver = SourceTable()
        _ = try receiver.resolve(.location("A.swift:1"), field: "action.source")
        #expect(throws: WireError.self) { try receiver.resolve(.reference(1), field: "batch.events[3].source") }
        do {
            _ = try receiver.resolve(.reference(1), field: "batch.events[3].source")
        } catch {
            #expect(error.code == .badField)
            #expect(error.field == "batch.events[3].source")
            #expect(error.message.contains("no source location was numbered 1"))
        }
        #expect(receiver.count == 1)
        #expect(try receiver.resolve(.reference(0), field: "action.source") == "A.swift:1")
    }

    @Test("texts longer than the limit always travel as text, on both ends")
    func longTexts() throws {
        var sender = SourceTable(), receiver = SourceTable()
        let long = String(repeating: "x", count: SourceTable.maxTextBytes + 1) + ":1"
        #expect(sender.encode(long) == .location(long))
        #expect(sender.encode(long) == .location(long))
        #expect(try receiver.resolve(.location(long), field: "source") == long)
        #expect(sender.count == 0 && receiver.count == 0)
        #expect(sender.encode("Short.swift:9") == .location("Short.swift:9"))
        #expect(sender.encode("Short.swift:9") == .reference(0))
    }

    @Test("once the table is full, new locations travel as text and the numbered ones keep their numbers")
    func fullTable() throws {
        var sender = SourceTable(), receiver = SourceTable()
        for line in 0..<SourceTable.capacity {
            let source = sender.encode("F.swift:\(line)")
            _ = try receiver.resolve(source, field: "source")
        }
        #expect(sender.encode("G.swift:1") == .location("G.swift:1"))
        #expect(sender.encode("G.swift:1") == .location("G.swift:1"))
        #expect(sender.encode("F.swift:7") == .reference(7))
        #expect(try receiver.resolve(.reference(SourceTable.capacity - 1), field: "source")
            == "F.swift:\(SourceTable.capacity - 1)")
    }

    @Test("on the wire a source is a string or a number; anything else names the field")
    func wireForms() throws {
        let patch = JSONPatch()
        for source in [EventSource.location("A.swift:1"), .reference(3)] {
            let message = AppMessage.action(ActionEvent(seq: 1, time: 2, action: ActionPayload(type: "a", payload: .null),
                                                        patch: patch, source: source))
            #expect(try WireCodec.decodeAppMessage(WireCodec.encode(message)) == message)
        }
        let frame = #"{"type":"action","seq":1,"time":2,"action":{"payload":"a"},"patch":[],"source":3}"#
        let decoded = try WireCodec.decodeAppMessage(Array(frame.utf8))
        guard case .action(let event) = decoded else { Issue.record("\(decoded)"); return }
        #expect(event.source == .reference(3) && event.action == ActionPayload(type: "a", payload: "a"))
        #expect(String(decoding: WireCodec.encode(decoded), as: UTF8.self).hasSuffix(#""patch":[],"source":3}"#))
        for bad in ["-1", "true", "1.5", "\(SourceTable.capacity)", "{}"] {
            let text = #"{"type":"action","seq":1,"time":2,"action":{"type":"a"},"patch":[],"source":\#(bad)}"#
            #expect(throws: WireError.self, "\(bad)") { try WireCodec.decodeAppMessage(Array(text.utf8)) }
            do {
                _ = try WireCodec.decodeAppMessage(Array(text.utf8))
            } catch {
                #expect(error.field == "action.source", "\(bad)")
            }
        }
    }
}
