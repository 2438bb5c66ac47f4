@testable import RewindWebSocket
import Testing

/// Issue 31: ten paused `rewind tail` viewers took the daemon to 309 MB against the documented 16 MiB each: the
/// backlog counted payload bytes, while each small message held its array's spare capacity and header too.
@Suite("The backlog cap counts what a message holds")
struct OutgoingBacklogCostTests {
    /// A 100-byte message built as the daemon builds its own, by appending: its storage is larger than its bytes.
    private func appendedMessage() -> [UInt8] {
        var message: [UInt8] = []
        for byte in 0..<100 { message.append(UInt8(byte)) }
        return message
    }

    @Test("each message counts its storage plus a fixed overhead against the cap")
    func costCountsStorage() {
        let message = appendedMessage()
        #expect(message.capacity > message.count, "appending leaves spare capacity")
        #expect(OutgoingMessageQueue.cost(of: message) == message.capacity + OutgoingMessageQueue.perMessageOverhead)
    }

    @Test("many small messages fill the cap by what they hold, not by their payload")
    func smallMessagesFillTheCap() {
        let queue = OutgoingMessageQueue(maxQueuedBytes: 1 << 20, fragmentBytes: 4096)
        var accepted = 0
        var held = 0
        while true {
            let message = appendedMessage()
            guard case .queued = queue.enqueue(message) else { break }
            accepted += 1
            held += OutgoingMessageQueue.cost(of: message)
        }
        #expect(queue.queuedBytes == held)
        #expect(held <= 1 << 20)
        #expect(accepted <= (1 << 20) / (100 + OutgoingMessageQueue.perMessageOverhead),
                "\(accepted) accepted; counted by payload, \((1 << 20) / 100) would have been")
    }
}
