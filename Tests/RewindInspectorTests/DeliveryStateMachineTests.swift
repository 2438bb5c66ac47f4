import RewindWire
import Testing
@testable import RewindInspector

/// The inspector's rules of delivery (`DeliveryStateMachine`), input by input: when it connects, what a `hello`
/// carries and what follows it, how much it sends beyond the daemon's acknowledgment, when it gives a silent daemon up,
/// and when everything is delivered.
@Suite("Delivery state machine")
struct DeliveryStateMachineTests {
    private func machine(window: Int = 1 << 20, answerTimeout: Double = 30) -> DeliveryStateMachine {
        DeliveryStateMachine(seq: 0, state: ["n": 0], now: 0, answerTimeout: answerTimeout, window: window,
                             logLimit: 4 * window, seed: 7)
    }

    private func frame(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Connected and welcomed by a daemon that acknowledges.
    private func streaming(window: Int = 1 << 20, answerTimeout: Double = 30) -> DeliveryStateMachine {
        var delivery = machine(window: window, answerTimeout: answerTimeout)
        #expect(delivery.tick(now: 0) == .connect)
        _ = delivery.connected(now: 0, baselineSeq: 0, baseline: ["n": 0])
        delivery.welcomed(Welcome(session: "s", acknowledges: true), now: 0)
        return delivery
    }

    @Test("it connects when an attempt is due, and after a failure waits a growing delay before the next")
    func connectsWithBackoff() {
        var delivery = machine()
        #expect(delivery.tick(now: 0) == .connect)
        #expect(delivery.tick(now: 0) == nil, "one attempt at a time")
        delivery.disconnected(now: 1)
        guard case .waiting(let first) = delivery.link else { Issue.record("\(delivery.link)"); return }
        #expect(delivery.tick(now: 1) == nil)
        #expect(delivery.tick(now: first) == .connect)
        delivery.disconnected(now: first)
        guard case .waiting(let second) = delivery.link else { Issue.record("\(delivery.link)"); return }
        #expect(second - first > first - 1, "the delay grows")
    }

    @Test("the hello carries the checkpoint and every frame sent after it follows, as first sent")
    func helloResendsTheLog() {
        var delivery = streaming()
        delivery.sent(frame("a1"), through: 1)
        delivery.sent(frame("a2"), through: 2)
        delivery.disconnected(now: 1)
        guard case .waiting(let retry) = delivery.link else { Issue.record("\(delivery.link)"); return }
        #expect(delivery.tick(now: retry) == .connect)
        let plan = delivery.connected(now: retry, baselineSeq: 2, baseline: ["n": 2])
        #expect(plan == .init(seq: 0, state: ["n": 0], resend: [frame("a1"), frame("a2")]))
        #expect(delivery.link == .greeting(since: retry))
    }

    @Test("the checkpoint moves only once the daemon acknowledged everything up to it")
    func checkpointFollowsAcknowledgments() {
        var delivery = streaming()
        delivery.sent(frame("a1"), through: 1)
        delivery.stateSent(seq: 1, state: ["n": 1], now: 1)
        delivery.sent(frame("a2"), through: 2)
        delivery.stateSent(seq: 2, state: ["n": 2], now: 2)
        delivery.acknowledged(Ack(seq: 1), now: 2)
        delivery.stateSent(seq: 2, state: ["n": 2], now: 3)
        delivery.disconnected(now: 3)
        guard case .waiting(let retry) = delivery.link else { Issue.record("\(delivery.link)"); return }
        _ = delivery.tick(now: retry)
        let plan = delivery.connected(now: retry, baselineSeq: 2, baseline: ["n": 2])
        // The generation from state 1 could start at once (the daemon had the checkpoint 0); the one from 2 only once
        // the daemon acknowledged action 1, which forgot the frames before 1: the checkpoint is the state after 1.
        #expect(plan?.seq == 1)
        #expect(plan?.state == ["n": 1])
        #expect(plan?.resend == [frame("a2")], "what followed the checkpoint, perhaps never received")
    }

    @Test("nothing more is handed over while the bytes sent beyond the last ack fill the window")
    func window() {
        var delivery = streaming(window: 10)
        #expect(delivery.mayHandOver)
        delivery.sent(frame("12345"), through: 1)
        #expect(delivery.mayHandOver)
        delivery.sent(frame("67890"), through: 2)
        #expect(!delivery.mayHandOver, "10 bytes unacknowledged")
        delivery.acknowledged(Ack(seq: 1), now: 1)
        #expect(delivery.mayHandOver)
        #expect(delivery.unacknowledgedBytes == 5)
    }

    @Test("a daemon that owes an answer and says nothing for the answer timeout is given up; any ack keeps it")
    func silentDaemonIsAbandoned() {
        var delivery = streaming(answerTimeout: 5)
        delivery.sent(frame("a1"), through: 1)
        #expect(delivery.tick(now: 1) == nil)
        delivery.acknowledged(Ack(seq: 0), now: 5)  // a repeated ack: the daemon lives, its disk is slow
        #expect(delivery.tick(now: 9) == nil)
        guard case .abandon(let reason)? = delivery.tick(now: 10.5) else { Issue.record("not abandoned"); return }
        #expect(reason.contains("acknowledgment"))
        guard case .waiting = delivery.link else { Issue.record("\(delivery.link)"); return }
    }

    @Test("the welcome is owed: a daemon that never sends it is given up")
    func missingWelcome() {
        var delivery = machine(answerTimeout: 5)
        _ = delivery.tick(now: 0)
        _ = delivery.connected(now: 0, baselineSeq: 0, baseline: ["n": 0])
        #expect(delivery.tick(now: 1) == nil)
        guard case .abandon(let reason)? = delivery.tick(now: 6.5) else { Issue.record("not abandoned"); return }
        #expect(reason.contains("welcome"))
    }

    @Test("delivered only once the daemon acknowledged every action handed on, and only with nothing lost")
    func verdict() {
        var delivery = streaming()
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .delivered, "nothing dispatched yet")
        delivery.sent(frame("a1"), through: 1)
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .pending)
        delivery.acknowledged(Ack(seq: 1, lost: 0), now: 1)
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .delivered)
        #expect(delivery.verdict(rangeOpen: true, lostInOutbox: 0) == .pending, "a range waits for its snapshot")
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 3) == .incomplete)
        delivery.handed(through: 4)
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .pending, "actions 2–4 are not accounted for")
        delivery.acknowledged(Ack(seq: 4, lost: 3), now: 2)
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .incomplete,
                "the record counts them lost: the resend log could not send them again (issue 28, case 3)")
    }

    @Test("with nobody to deliver to (the first attempt failed, none succeeded), everything counts as delivered")
    func nobodyThere() {
        var delivery = machine()
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .pending, "still trying")
        _ = delivery.tick(now: 0)
        delivery.disconnected(now: 0)
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .delivered)
    }

    @Test("refused before any welcome (a wrong token): nothing can be recorded, so nothing waits; once welcomed, it does")
    func refusedBeforeWelcome() {
        var delivery = machine()
        _ = delivery.tick(now: 0)
        _ = delivery.connected(now: 0, baselineSeq: 0, baseline: ["n": 0])
        delivery.handed(through: 3)
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .pending)
        delivery.refused()
        delivery.disconnected(now: 0)
        #expect(!delivery.everWelcomed)
        #expect(delivery.verdict(rangeOpen: false, lostInOutbox: 0) == .delivered, "no session exists to wait for")
        var welcomed = streaming()
        welcomed.handed(through: 3)
        welcomed.refused()
        welcomed.disconnected(now: 0)
        #expect(welcomed.verdict(rangeOpen: false, lostInOutbox: 0) == .pending,
                "a session exists: its actions still wait for a daemon")
    }

    @Test("a log that gave up starts the next connection from the last state sent, with nothing to send again")
    func logGaveUp() {
        var delivery = DeliveryStateMachine(seq: 0, state: ["n": 0], now: 0, answerTimeout: 30, window: 4,
                                            logLimit: 8, seed: 7)
        _ = delivery.tick(now: 0)
        _ = delivery.connected(now: 0, baselineSeq: 0, baseline: ["n": 0])
        delivery.welcomed(Welcome(session: "s", acknowledges: true), now: 0)
        delivery.sent(frame("a large frame"), through: 1)
        #expect(delivery.resendLogGaveUp)
        delivery.disconnected(now: 1)
        guard case .waiting(let retry) = delivery.link else { Issue.record("\(delivery.link)"); return }
        _ = delivery.tick(now: retry)
        let plan = delivery.connected(now: retry, baselineSeq: 1, baseline: ["n": 1])
        #expect(plan == .init(seq: 1, state: ["n": 1], resend: []))
        #expect(!delivery.resendLogGaveUp, "a new generation starts at that state")
    }
}
