import RewindWire
import Testing
@testable import RewindInspector

/// What the inspector keeps to send again after a reset (`ResendLog`): everything after a state the daemon may not
/// have yet, however long frames stay in flight.
@Suite("Resend log")
struct ResendLogTests {
    private func frame(_ seq: Int) -> [UInt8] {
        Array("frame \(seq)".utf8)
    }

    @Test("with acknowledgments, the checkpoint moves only once the daemon has everything up to the next one, however old it is")
    func acknowledgedCheckpoint() {
        var log = ResendLog(seq: 0, state: .int(0), now: 0, byteLimit: 1 << 20)
        log.log(frame(1))
        log.log(frame(2))
        // Ten seconds later the daemon has acknowledged nothing beyond the checkpoint's action 0: a generation
        // starts at 2, but the checkpoint stays at 0 and both frames are kept (a time rule would have dropped them).
        log.advance(seq: 2, state: .int(2), now: 10, acked: 0)
        #expect(log.checkpoint?.seq == 0)
        #expect(log.frames.count == 2)
        log.log(frame(3))
        // The daemon has action 1 only: the current generation (from 2) is not covered; nothing is forgotten.
        log.advance(seq: 3, state: .int(3), now: 20, acked: 1)
        #expect(log.checkpoint?.seq == 0)
        #expect(log.frames.count == 3)
        // The daemon has action 2, where the current generation starts: frames 1 and 2 are forgotten, the
        // checkpoint is the state after 2, and frame 3 (perhaps still in flight) is kept.
        log.advance(seq: 3, state: .int(3), now: 20, acked: 2)
        #expect(log.checkpoint?.seq == 2)
        #expect(log.frames.map { String(decoding: $0, as: UTF8.self) } == ["frame 3"])
    }

    @Test("without acknowledgments (an older daemon), a generation ends after a second")
    func timedCheckpoint() {
        var log = ResendLog(seq: 0, state: .int(0), now: 0, byteLimit: 1 << 20)
        log.log(frame(1))
        log.advance(seq: 1, state: .int(1), now: 0.5)
        #expect(log.checkpoint?.seq == 0 && log.frames.count == 1)
        log.advance(seq: 1, state: .int(1), now: 1.1)
        log.log(frame(2))
        log.advance(seq: 2, state: .int(2), now: 2.2)
        #expect(log.checkpoint?.seq == 1)
        #expect(log.frames.count == 1)
    }
}
