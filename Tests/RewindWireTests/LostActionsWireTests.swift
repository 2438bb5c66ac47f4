import RewindWire
import Testing

/// `dropped.actionsLost` and `goodbye` on the wire (docs/PROTOCOL.md §3.3, §3.4).
@Suite("Lost actions and goodbye on the wire")
struct LostActionsWireTests {
    @Test("dropped carries actionsLost only when some actions were lost; older forms read as 0")
    func droppedActionsLost() throws {
        let lossy = AppMessage.dropped(Dropped(from: 10, to: 5_000, actionsLost: 1_200))
        #expect(String(decoding: WireCodec.encode(lossy), as: UTF8.self)
                == #"{"type":"dropped","from":10,"to":5000,"actionsLost":1200}"#)
        #expect(try WireCodec.decodeAppMessage(WireCodec.encode(lossy)) == lossy)
        let plain = try WireCodec.decodeAppMessage(Array(#"{"type":"dropped","from":4,"to":9}"#.utf8))
        #expect(plain == .dropped(Dropped(from: 4, to: 9, actionsLost: 0)))
        #expect(String(decoding: WireCodec.encode(plain), as: UTF8.self) == #"{"type":"dropped","from":4,"to":9}"#)
    }

    @Test("more actions lost than the range holds is refused, naming the field")
    func droppedActionsLostBounded() {
        let frame = Array(#"{"type":"dropped","from":4,"to":9,"actionsLost":7}"#.utf8)
        #expect { try WireCodec.decodeAppMessage(frame) } throws: { error in
            (error as? WireError)?.code == .badField && (error as? WireError)?.field == "dropped.actionsLost"
        }
    }

    @Test("goodbye round-trips and requires its seq")
    func goodbye() throws {
        let message = AppMessage.goodbye(Goodbye(seq: 42))
        #expect(String(decoding: WireCodec.encode(message), as: UTF8.self) == #"{"type":"goodbye","seq":42}"#)
        #expect(try WireCodec.decodeAppMessage(WireCodec.encode(message)) == message)
        #expect { try WireCodec.decodeAppMessage(Array(#"{"type":"goodbye"}"#.utf8)) } throws: { error in
            (error as? WireError)?.code == .missingField
        }
    }
}
