import RewindDaemon
import RewindSessionFile
import RewindWebSocket
import RewindWire
import Testing

/// The daemon's rules for recording one app run (`AppIngest`), input by input: what each message records, what is
/// refused, what is counted lost, and when the app is acknowledged. The machine does no I/O, so each rule is a few
/// lines; the end-to-end suites check the same rules through a real daemon.
@Suite("App ingest")
struct AppIngestTests {
    private let first = ConnectionID(rawValue: 1)
    private let second = ConnectionID(rawValue: 2)

    @Test("a new run is welcomed; the actions it dispatched before its hello are counted lost in one row")
    func newRun() {
        var run = IngestRun(hello: hello(seq: 3))
        run.connect(first, hello(seq: 3), resumed: false)
        #expect(run.sent(to: first).first == .welcome(Welcome(session: "s", protocolVersion: 2, acknowledges: true)))
        #expect(run.rows.map(\.event.label) == ["lost"])
        #expect(run.rows[0].event.action == ["from": 1, "to": 3, "actionsLost": 3])
        #expect(run.ingest.lostActions == 3 && run.ingest.accountedThrough == 3)
        #expect(run.ingest.knownState == ["n": 0], "the hello's state is the state after them")
    }

    @Test("actions are recorded in order with their patches, and the record's state follows them")
    func actionsInOrder() {
        var run = IngestRun.connected(first)
        run.receive(.batch([action(1, n: 1), action(2, n: 2)]), on: first)
        run.receive(.action(action(3, n: 3)), on: first)
        #expect(run.rows.compactMap(\.event.appSeq) == [1, 2, 3])
        #expect(run.rows.allSatisfy { $0.event.kind == .action && $0.event.patch != nil })
        #expect(run.ingest.knownState == ["n": 3])
        #expect(run.rows.map(\.index) == [1, 2, 3], "the machine numbers every row of the session")
    }

    @Test("an action sent twice on one connection is refused with out_of_order and recorded once (issue 28, case 4)")
    func repeatedActions() {
        var run = IngestRun.connected(first)
        let events = (1...10).map { action(UInt64($0), n: $0) }
        run.receive(.batch(events), on: first)
        run.receive(.batch(events), on: first)
        #expect(run.rows.filter { $0.event.kind == .action }.count == 10)
        #expect(run.errors(to: first).map(\.code) == [.outOfOrder])
        #expect(run.errors(to: first).first?.message.contains("actions 1–10 were already recorded") == true)
        #expect(run.rows.last?.event.label == AppIngest.repeatedLabel, "the refusal's row leaves the state known")
        #expect(run.ingest.knownState == ["n": 10])
    }

    @Test("protocol 1 numbers count from the connection's hello.seq and are mapped once, at the edge")
    func protocolOneNumbers() {
        var run = IngestRun(hello: hello(seq: 0))
        run.connect(first, hello(seq: 0), resumed: false)
        run.receive(.batch([action(1, n: 1), action(2, n: 2)]), on: first)
        run.commitAll()
        let reconnect = hello(seq: 2, version: 1, state: ["n": 2])
        run.connect(second, reconnect, resumed: true)
        run.receive(.action(action(1, n: 3)), on: second)  // the run's action 3
        run.commitAll()
        #expect(run.rows.filter { $0.event.kind == .action }.compactMap(\.event.appSeq) == [1, 2, 3])
        #expect(run.acks(to: second).last == Ack(seq: 1, lost: 0), "acks are in the connection's own numbers")
    }

    @Test("a gap the app did not announce counts the missing actions lost, makes the state unknown and asks for a snapshot")
    func unannouncedGap() {
        var run = IngestRun.connected(first)
        run.receive(.action(action(1, n: 1)), on: first)
        run.receive(.action(action(4, n: 4)), on: first)
        #expect(run.rows.map(\.event.label) == ["a", "out_of_order", "lost", "a"])
        #expect(run.rows[2].event.action == ["from": 2, "to": 3, "actionsLost": 2])
        #expect(run.sent(to: first).contains(.resync(Resync(reason: "out_of_order"))))
        #expect(run.ingest.knownState == nil)
        #expect(run.rows.last?.event.patch == nil, "a patch made against a state the record does not have is dropped")
        run.receive(.snapshot(Snapshot(seq: 4, state: ["n": 4], reason: "resync")), on: first)
        #expect(run.ingest.knownState == ["n": 4])
    }

    @Test("a dropped range: its actions carry no state, the ones the app could not keep are counted lost, its snapshot closes it")
    func droppedRange() {
        var run = IngestRun.connected(first)
        run.receive(.dropped(Dropped(from: 1, to: 5, actionsLost: 2)), on: first)
        run.receive(.batch([empty(1), empty(2), empty(5)]), on: first)
        run.receive(.snapshot(Snapshot(seq: 5, state: ["n": 5], reason: "coalesced")), on: first)
        #expect(run.rows.map(\.event.label) == ["dropped", "a", "a", "lost", "a", "coalesced"])
        #expect(run.rows[3].event.detail?.contains("outbox was full") == true)
        #expect(run.errors(to: first).isEmpty, "numbers skipped inside an announced range are no protocol error")
        #expect(run.ingest.lostActions == 2)
        #expect(run.ingest.knownState == ["n": 5])
    }

    @Test("a patch that does not apply is answered patch_failed and resync; the state is unknown until a snapshot")
    func patchFailed() {
        var run = IngestRun.connected(first)
        var bad = action(1, n: 1)
        bad.patch = JSONPatch([.remove(path: try! JSONPointer("/missing"))])
        run.receive(.action(bad), on: first)
        #expect(run.errors(to: first).map(\.code) == [.patchFailed])
        #expect(run.sent(to: first).contains(.resync(Resync(reason: "patch_failed"))))
        #expect(run.ingest.knownState == nil)
        run.receive(.snapshot(Snapshot(seq: 1, state: ["n": 1], reason: "resync")), on: first)
        #expect(run.ingest.knownState == ["n": 1])
    }

    @Test("a reconnect from an older checkpoint records only what the daemon did not have, whatever the resend count says (case 4)")
    func resendIsNotRecordedTwice() {
        var run = IngestRun.connected(first)
        run.receive(.batch((1...20).map { action(UInt64($0), n: $0) }), on: first)
        run.commitAll()
        run.disconnect(first)
        run.resume(from: run.committedPoint(state: ["n": 20], known: true))
        // The app starts again from action 15 and says it sends 2 messages again, but sends 3 (16–20, 16–22, 23).
        run.connect(second, hello(seq: 15, state: ["n": 15], resending: 2), resumed: true)
        run.receive(.batch((16...20).map { action(UInt64($0), n: $0) }), on: second)
        run.receive(.batch((16...22).map { action(UInt64($0), n: $0) }), on: second)
        run.receive(.action(action(23, n: 23)), on: second)
        let recorded = run.rows.filter { $0.event.kind == .action }.compactMap(\.event.appSeq)
        #expect(recorded == (1...23).map { Int64($0) }, "every action once")
        #expect(run.ingest.knownState == ["n": 23])
    }

    @Test("a reconnect whose record had lost track of the state puts the state the resend rebuilt in place")
    func resendRebuildsTheState() {
        var run = IngestRun.connected(first)
        run.receive(.action(action(1, n: 1)), on: first)
        run.receive(.dropped(Dropped(from: 2, to: 3)), on: first)
        run.receive(.batch([empty(2), empty(3)]), on: first)
        run.commitAll()
        run.disconnect(first)
        run.resume(from: run.committedPoint(state: ["n": 1], known: false))
        // The snapshot closing the range was lost with the connection; the app sends its log again from action 1.
        run.connect(second, hello(seq: 1, state: ["n": 1], resending: 3), resumed: true)
        run.receive(.dropped(Dropped(from: 2, to: 3)), on: second)
        run.receive(.batch([empty(2), empty(3)]), on: second)
        run.receive(.snapshot(Snapshot(seq: 3, state: ["n": 3], reason: "coalesced")), on: second)
        #expect(run.ingest.knownState == ["n": 3])
        #expect(run.rows.last?.event.kind == .reconnect)
        #expect(run.rows.last?.event.detail?.contains("rebuilt") == true)
        #expect(run.rows.filter { $0.event.kind == .action }.count == 3)
    }

    @Test("a reconnect past the record counts the actions in between lost")
    func reconnectPastTheRecord() {
        var run = IngestRun.connected(first)
        run.receive(.action(action(1, n: 1)), on: first)
        run.commitAll()
        run.disconnect(first)
        run.connect(second, hello(seq: 4, state: ["n": 4]), resumed: true)
        #expect(run.rows.suffix(2).map(\.event.label) == ["lost", "reconnect"])
        #expect(run.ingest.lostActions == 3)
        #expect(run.ingest.knownState == ["n": 4])
    }

    @Test("an ack is sent only once the rows a message added are committed, and its bytes stay charged until then (case 2)")
    func ackMeansCommitted() {
        var run = IngestRun.connected(first)
        run.receive(.batch([action(1, n: 1), action(2, n: 2)]), on: first, bytes: 300)
        #expect(run.acks(to: first).isEmpty)
        #expect(run.ingest.uncommittedBytes == 300)
        #expect(run.ingest.owesAcknowledgment)
        run.commit(through: 1)
        #expect(run.acks(to: first).isEmpty, "row 2 is not committed yet")
        run.commit(through: 2)
        #expect(run.acks(to: first) == [Ack(seq: 2, lost: 0)])
        #expect(run.ingest.uncommittedBytes == 0)
    }

    @Test("while rows wait for the disk the last ack is repeated every second, so the app knows the daemon lives")
    func ackKeepalive() {
        var run = IngestRun.connected(first)
        run.receive(.action(action(1, n: 1)), on: first)
        run.commitAll()
        run.receive(.action(action(2, n: 2)), on: first)
        let before = run.acks(to: first).count
        run.tick(after: 0.5)
        #expect(run.acks(to: first).count == before)
        run.tick(after: 1.1)
        #expect(run.acks(to: first).count == before + 1)
        #expect(run.acks(to: first).last == Ack(seq: 1, lost: 0), "the repeat says no more than what is committed")
    }

    @Test("goodbye with every action accounted for ends clean; a close without it, interrupted; a daemon stopping, clean (case 7)")
    func endStates() {
        var clean = IngestRun.connected(first)
        clean.receive(.action(action(1, n: 1)), on: first)
        clean.receive(.goodbye(Goodbye(seq: 1)), on: first)
        #expect(clean.ingest.disconnect(first, daemonStopping: false) == .clean)

        var early = IngestRun.connected(first)
        early.receive(.action(action(1, n: 1)), on: first)
        early.receive(.goodbye(Goodbye(seq: 3)), on: first)
        #expect(early.rows.last?.event.label == "lost", "the goodbye's number shows actions that never arrived")
        #expect(early.ingest.disconnect(first, daemonStopping: false) == .clean)

        var killed = IngestRun.connected(first)
        killed.receive(.action(action(1, n: 1)), on: first)
        #expect(killed.ingest.disconnect(first, daemonStopping: false) == .interrupted)

        var stopping = IngestRun.connected(first)
        stopping.receive(.action(action(1, n: 1)), on: first)
        #expect(stopping.ingest.disconnect(first, daemonStopping: true) == .clean)
        #expect(stopping.ingest.disconnect(second, daemonStopping: true) == nil, "another connection's close is ignored")
    }

    @Test("a snapshot older than the record is refused and not recorded")
    func staleSnapshot() {
        var run = IngestRun.connected(first)
        run.receive(.batch([action(1, n: 1), action(2, n: 2)]), on: first)
        run.receive(.snapshot(Snapshot(seq: 1, state: ["n": 1], reason: "resync")), on: first)
        #expect(run.errors(to: first).map(\.code) == [.outOfOrder])
        #expect(!run.rows.contains { $0.event.kind == .snapshot })
        #expect(run.ingest.knownState == ["n": 2])
    }

    @Test("protocol 2 source numbers continue the run's table sent in the hello")
    func sourcesFromHello() {
        var run = IngestRun(hello: hello(seq: 0))
        run.connect(first, hello(seq: 0, sources: ["A.swift:1", "B.swift:2"]), resumed: false)
        var event = action(1, n: 1)
        event.source = .reference(1)
        run.receive(.action(event), on: first)
        #expect(run.rows.last?.event.detail == "B.swift:2")
        event = action(2, n: 2)
        event.source = .reference(2)
        run.receive(.action(event), on: first)
        #expect(run.errors(to: first).map(\.field) == ["action.source"], "a number the table does not hold is refused")
    }

    // MARK: - Helpers

    private func hello(seq: UInt64, version: Int = 2, state: JSONValue = ["n": 0], resending: UInt64? = nil,
                       sources: [String] = []) -> Hello {
        Hello(protocolVersion: version, app: AppIdentity(name: "app", instance: "i"), state: state,
              capabilities: ["ack"], seq: seq, resending: resending, sources: sources)
    }

    private func action(_ seq: UInt64, n: Int) -> ActionEvent {
        ActionEvent(seq: seq, time: 1, action: ActionPayload(type: "a", payload: .null),
                    patch: JSONPatch([.replace(path: try! JSONPointer("/n"), value: .int(Int64(n)))]))
    }

    private func empty(_ seq: UInt64) -> ActionEvent {
        ActionEvent(seq: seq, time: 1, action: ActionPayload(type: "a", payload: .null), patch: JSONPatch())
    }
}

/// An ``AppIngest`` and what its outputs did: the rows appended, the messages sent, a clock, and a recording that
/// commits when told.
struct IngestRun {
    var ingest: AppIngest
    private(set) var rows: [IngestRow] = []
    private(set) var messages: [(DaemonMessage, ConnectionID)] = []
    private var clock = IngestClock(monotonic: 100, wall: 1_700_000_000)

    init(hello: Hello) {
        ingest = AppIngest(newSessionID: "s", hello: hello, maxStateBytes: 1 << 20)
    }

    /// A new run connected on `connection` with protocol 2 and nothing dispatched.
    static func connected(_ connection: ConnectionID) -> IngestRun {
        let hello = Hello(app: AppIdentity(name: "app", instance: "i"), state: ["n": 0], capabilities: ["ack"], seq: 0)
        var run = IngestRun(hello: hello)
        run.connect(connection, hello, resumed: false)
        return run
    }

    mutating func connect(_ connection: ConnectionID, _ hello: Hello, resumed: Bool) {
        take(ingest.connect(connection, hello: hello, resumed: resumed, at: clock))
    }

    mutating func receive(_ message: AppMessage, on connection: ConnectionID, bytes: Int = 100) {
        take(ingest.receive(message, bytes: bytes, on: connection, at: clock))
    }

    mutating func disconnect(_ connection: ConnectionID) {
        _ = ingest.disconnect(connection, daemonStopping: false)
    }

    /// Continues from `point` as a daemon does after reopening the file.
    mutating func resume(from point: IngestResumePoint) {
        ingest = AppIngest(resumingSessionID: "s", from: point, maxStateBytes: 1 << 20)
    }

    /// What the file would say after every row was committed, with the given last state.
    func committedPoint(state: JSONValue, known: Bool) -> IngestResumePoint {
        IngestResumePoint(accountedThrough: ingest.accountedThrough, state: state,
                          unknownState: known ? nil : rows.last?.event.meaning.unknownState
                              ?? UnknownStateMark(reason: .lost, cause: Int64(rows.count)),
                          lostActions: ingest.lostActions, lastIndex: Int64(rows.count))
    }

    mutating func commit(through index: Int64) {
        take(ingest.committed(through: index, at: clock))
    }

    mutating func commitAll() {
        commit(through: rows.last?.index ?? 0)
    }

    mutating func tick(after seconds: Double) {
        var later = clock
        later.monotonic += seconds
        take(ingest.tick(at: later))
    }

    private mutating func take(_ outputs: [IngestOutput]) {
        for output in outputs {
            switch output {
            case .append(let row): rows.append(row)
            case .send(let message, let connection): messages.append((message, connection))
            case .close: break
            }
        }
    }

    func sent(to connection: ConnectionID) -> [DaemonMessage] {
        messages.filter { $0.1 == connection }.map(\.0)
    }

    func errors(to connection: ConnectionID) -> [WireError] {
        sent(to: connection).compactMap { if case .error(let error) = $0 { return error } else { return nil } }
    }

    func acks(to connection: ConnectionID) -> [Ack] {
        sent(to: connection).compactMap { if case .ack(let ack) = $0 { return ack } else { return nil } }
    }
}
