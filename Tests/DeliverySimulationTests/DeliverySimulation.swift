import Foundation
@testable import RewindDaemon
@testable import RewindSessionFile
@testable import RewindInspector
import RewindWebSocket
import RewindWire

/// A deterministic simulation of one app run recorded by a daemon across an unreliable network and disk, driving the
/// real rules on both sides: the app's outbox, ``FrameBuilder`` and ``DeliveryStateMachine`` (as the inspector's
/// pipeline thread drives them), and the daemon's ``AppIngest`` (as `LiveSession` drives it), with a registry that
/// continues the run's session after a reconnect (probing a still-open old connection) or a restart.
///
/// Everything happens on one thread in virtual time, from one seed: the app's dispatches and the pauses between them,
/// how much its outbox holds (so that it coalesces and loses actions), message delays, and faults — connections reset
/// on both sides, reset on the app's side only (half-open: the daemon's side stays open until its keepalive or a
/// probe finds it), black holes, a disk that stalls or fills, a daemon that crashes or stops. Then the network and the
/// disk heal, the app waits for delivery and says goodbye (or is killed), and ``violations`` checks what the committed
/// record says against what the app did.
///
/// Threading: one thread.
final class DeliverySimulation {
    /// The app's state: the number of the last action dispatched.
    struct SimState: Codable, Sendable, Equatable {
        var n: Int
    }

    /// Something that happens at a moment of virtual time.
    private enum Event {
        case dispatch
        case appTurn
        case appConnected(ConnectionID)
        case appConnectFailed
        case arriveAtDaemon(ConnectionID, [UInt8])
        case arriveAtApp(ConnectionID, DaemonMessage)
        case daemonSeesClose(ConnectionID)
        case appSeesClose(ConnectionID)
        case commit(Int)
        case ackTick(Int)
        case keepalive
        case pushSnapshot(reason: String)
        case fault(Fault)
        case daemonRestarts
        case diskHeals
        case finish
    }

    /// A fault the schedule injects.
    enum Fault: CustomStringConvertible {
        case resetBoth, halfOpen, blackHole, diskStall(Double), diskFull(Double), daemonCrash(Double)
        case daemonStop(Double)

        var description: String {
            switch self {
            case .resetBoth: return "reset"
            case .halfOpen: return "half-open"
            case .blackHole: return "black hole"
            case .diskStall(let seconds): return "disk stall \(seconds)s"
            case .diskFull(let seconds): return "disk full \(seconds)s"
            case .daemonCrash(let seconds): return "daemon crash \(seconds)s"
            case .daemonStop(let seconds): return "daemon stop \(seconds)s"
            }
        }
    }

    private enum Disk { case ok, stalled, full }

    // MARK: Schedule

    let seed: UInt64
    private var random: SplitMixRandom
    /// How many actions the app dispatches.
    let actions: Int
    private let answerTimeout = 3.0
    private let keepaliveInterval = 1.0
    private let keepaliveTimeout = 2.0
    private let flushInterval = 0.05

    // MARK: Time

    private(set) var now = 0.0
    private var queue: [(time: Double, order: UInt64, event: Event)] = []
    private var order: UInt64 = 0

    // MARK: The app

    private let outbox: Outbox<SimState, Int>
    private var frames: FrameBuilder<SimState, Int>
    private var delivery: DeliveryStateMachine
    private var appState = SimState(n: 0)
    private(set) var dispatched: UInt64 = 0
    private var appConnection: ConnectionID?
    private var connecting: ConnectionID?
    private let snapshotWanted = SnapshotFlag()
    private var appStopped = false
    /// The app's verdict when it stopped waiting for delivery, and whether it said goodbye.
    private(set) var finalVerdict: DeliveryStateMachine.Verdict = .pending
    private(set) var saidGoodbye = false
    private(set) var killed = false

    // MARK: The network and the daemon

    private var network = SimulatedNetwork()
    private var daemonUp = true
    private(set) var records: [SimulatedRecord] = []
    /// The record each daemon-side connection is bound to (after its hello).
    private var bound: [ConnectionID: Int] = [:]
    private var disk = Disk.ok
    private var stopping = false
    /// When the app stops waiting for delivery at the end.
    private var finishDeadline: Double?
    private(set) var log: [String] = []
    private(set) var problems: [String] = []
    private(set) var faults: [String] = []

    init(seed: UInt64) {
        self.seed = seed
        var random = SplitMixRandom(seed: seed)
        actions = Int.random(in: 50...400, using: &random)
        // Budgets from roomy to starved, so that some runs coalesce and some lose actions outright.
        let budget = [1 << 20, 1 << 20, 16_384, 4_096, 1_500].randomElement(using: &random)!
        self.random = random
        outbox = Outbox(budgetBytes: budget)
        var configuration = InspectorConfiguration()
        configuration.maxBatchEvents = 16
        configuration.memoMinimumStateBytes = .max
        let flag = snapshotWanted
        frames = FrameBuilder(outbox: outbox, coding: .codable, redactor: Redactor(paths: []),
                              configuration: configuration, stateType: "SimState", deliveryReserveBytes: 0,
                              onSnapshotWanted: { flag.raise() })
        frames.start(with: SimState(n: 0), now: 0)
        delivery = DeliveryStateMachine(seq: 0, state: frames.baseline, now: 0, answerTimeout: answerTimeout,
                                        window: 2_048, logLimit: 16_384, seed: seed)
    }

    // MARK: - Running

    /// Runs the schedule to its end.
    func run() {
        schedule(.dispatch, after: 0)
        schedule(.appTurn, after: 0)
        schedule(.keepalive, after: 0.25)
        let faultCount = Int.random(in: 0...6, using: &random)
        let span = Double(actions) * 0.004
        for _ in 0..<faultCount {
            schedule(.fault(randomFault()), after: Double.random(in: 0...max(0.1, span), using: &random))
        }
        schedule(.finish, after: span + 8)
        var steps = 0
        while !queue.isEmpty {
            steps += 1
            if steps > 3_000_000 {
                problems.append("the simulation did not settle (\(steps) steps, t=\(now))")
                return
            }
            let next = pop()
            now = next.time
            handle(next.event)
        }
    }

    private func randomFault() -> Fault {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: return .resetBoth
        case 2, 3, 4: return .halfOpen
        case 5: return .blackHole
        case 6: return .diskStall(Double.random(in: 0.2...4, using: &random))
        case 7: return .diskFull(Double.random(in: 0.2...4, using: &random))
        case 8: return .daemonCrash(Double.random(in: 0.1...2, using: &random))
        default: return .daemonStop(Double.random(in: 0.1...2, using: &random))
        }
    }

    private func schedule(_ event: Event, after delay: Double) {
        order += 1
        queue.append((now + delay, order, event))
        var child = queue.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(queue[child], queue[parent]) else { break }
            queue.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> (time: Double, order: UInt64, event: Event) {
        let first = queue[0]
        let last = queue.removeLast()
        if !queue.isEmpty {
            queue[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < queue.count && before(queue[left], queue[smallest]) { smallest = left }
                if right < queue.count && before(queue[right], queue[smallest]) { smallest = right }
                if smallest == parent { break }
                queue.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }

    private func before(_ a: (time: Double, order: UInt64, event: Event), _ b: (time: Double, order: UInt64, event: Event)) -> Bool {
        a.time < b.time || (a.time == b.time && a.order < b.order)
    }

    private func note(_ line: String) {
        log.append(String(format: "%8.3f ", now) + line)
        if log.count > 400 { log.removeFirst(100) }
    }

    private var latency: Double { Double.random(in: 0.0005...0.02, using: &random) }

    private func handle(_ event: Event) {
        switch event {
        case .dispatch: dispatch()
        case .appTurn: appTurn()
        case .appConnected(let id): appConnected(id)
        case .appConnectFailed:
            connecting = nil
            delivery.disconnected(now: now)
        case .arriveAtDaemon(let id, let bytes): arriveAtDaemon(id, bytes)
        case .arriveAtApp(let id, let message): arriveAtApp(id, message)
        case .daemonSeesClose(let id): daemonCloses(id, tellApp: false)
        case .appSeesClose(let id): appSeesClose(id)
        case .commit(let record): commit(record)
        case .ackTick(let record): ackTick(record)
        case .keepalive: keepalive()
        case .pushSnapshot(let reason):
            outbox.pushSnapshot(afterSeq: dispatched, finishedNanos: 0, state: appState, reason: reason)
        case .fault(let fault): inject(fault)
        case .daemonRestarts:
            note("daemon restarts")
            daemonUp = true
            stopping = false
            for record in records where !record.finished {
                // A crashed daemon left the file live; the next one repairs it as interrupted.
                record.finished = true
                record.endState = .interrupted
            }
        case .diskHeals:
            disk = .ok
            for (index, record) in records.enumerated() {
                if let end = record.finishWhenWritable {
                    record.finishWhenWritable = nil
                    finishFile(index, endState: end.endState, byDaemonStop: end.byDaemonStop)
                } else if !record.pending.isEmpty {
                    scheduleCommit(index)
                }
            }
        case .finish: finish()
        }
    }

    // MARK: - The app

    private func dispatch() {
        guard !appStopped, dispatched < UInt64(actions) else { return }
        dispatched += 1
        appState.n = Int(dispatched)
        outbox.push(seq: dispatched, finishedNanos: UInt64(now * 1e9), action: Int(dispatched), source: nil,
                    state: appState, reducerNanos: 0)
        let pause = Int.random(in: 0..<40, using: &random) == 0
            ? Double.random(in: 0.05...0.5, using: &random) : Double.random(in: 0.0001...0.004, using: &random)
        schedule(.dispatch, after: pause)
    }

    /// One turn of the pipeline thread's loop (``InspectorPipeline``'s, without threads).
    private func appTurn() {
        guard !appStopped else { return }
        switch delivery.tick(now: now) {
        case .connect?:
            appConnect()
        case .abandon(let reason)?:
            note("app abandons \(appConnection.map(String.init(describing:)) ?? "-"): \(reason)")
            if let id = appConnection { appCloses(id) }
        case nil:
            break
        }
        if case .greeting = delivery.link { handOver() } else if delivery.link == .streaming { handOver() }
        if snapshotWanted.take() { schedule(.pushSnapshot(reason: Outbox<SimState, Int>.closingReason), after: 0.002) }
        schedule(.appTurn, after: 0.005)
    }

    private func handOver() {
        guard delivery.mayHandOver, appConnection != nil else { return }
        let drained = outbox.drain(waitingUpTo: 0, limit: 16)
        frames.frame(drained, now: now) { frame in
            sendToDaemon(frame.bytes)
            delivery.sent(frame.bytes, through: frame.through)
        }
        delivery.handed(through: frames.latestSeq)
        if !frames.rangeOpen {
            delivery.stateSent(seq: frames.baselineSeq, state: frames.baseline, now: now)
        }
        outbox.release(drained.charge)
    }

    private func appConnect() {
        guard daemonUp else {
            schedule(.appConnectFailed, after: 0.001)
            return
        }
        let id = network.open(at: now)
        connecting = id
        schedule(.appConnected(id), after: latency)
    }

    private func appConnected(_ id: ConnectionID) {
        guard connecting == id, !appStopped else { return }
        connecting = nil
        guard daemonUp, network[id]?.daemonSideOpen == true else {
            delivery.disconnected(now: now)
            return
        }
        appConnection = id
        guard let plan = delivery.connected(now: now, baselineSeq: frames.baselineSeq, baseline: frames.baseline) else {
            return
        }
        note("app connected on \(id): hello seq \(plan.seq), resending \(plan.resend.count)")
        let hello = Hello(app: AppIdentity(name: "sim", instance: "run"), state: plan.state,
                          capabilities: [WireCapability.batch, WireCapability.ack], seq: plan.seq,
                          resending: plan.resend.isEmpty ? nil : UInt64(plan.resend.count),
                          sources: frames.sources.texts)
        sendToDaemon(WireCodec.encode(AppMessage.hello(hello)))
        for frame in plan.resend { sendToDaemon(frame) }
    }

    private func sendToDaemon(_ bytes: [UInt8]) {
        guard let id = appConnection, let arrival = network.arrivalAtDaemon(id, now: now, delay: latency) else { return }
        schedule(.arriveAtDaemon(id, bytes), after: arrival - now)
    }

    private func arriveAtApp(_ id: ConnectionID, _ message: DaemonMessage) {
        guard id == appConnection, network[id]?.toAppFlows == true, !appStopped else { return }
        switch message {
        case .welcome(let welcome): delivery.welcomed(welcome, now: now)
        case .ack(let ack):
            delivery.acknowledged(ack, now: now)
            note("app acked \(ack.seq) lost \(ack.lost ?? 0); handed \(delivery.handedThrough), unacked bytes \(delivery.unacknowledgedBytes)")
        case .resync: schedule(.pushSnapshot(reason: "resync"), after: 0.002)
        case .error(let error): note("app told \(error)")
        default: break
        }
    }

    /// The app closes its side of `id` (a close frame the daemon receives after what was sent before it).
    private func appCloses(_ id: ConnectionID) {
        if let arrival = network.arrivalAtDaemon(id, now: now, delay: latency) {
            schedule(.daemonSeesClose(id), after: arrival - now)
        }
        network[id]?.appSideOpen = false
        if appConnection == id { appConnection = nil }
    }

    private func appSeesClose(_ id: ConnectionID) {
        network[id]?.appSideOpen = false
        guard appConnection == id else { return }
        appConnection = nil
        delivery.disconnected(now: now)
    }

    // MARK: - The daemon

    private func arriveAtDaemon(_ id: ConnectionID, _ bytes: [UInt8]) {
        guard daemonUp, var connection = network[id], connection.daemonSideOpen, connection.toDaemonFlows else { return }
        connection.daemonLastHeard = now
        network[id] = connection
        let message: AppMessage
        do {
            message = try WireCodec.decodeAppMessage(bytes)
        } catch {
            problems.append("the daemon could not decode a frame the app sent: \(error)")
            return
        }
        if let index = bound[id] {
            guard var ingest = records[index].ingest else { return }
            let outputs = ingest.receive(message, bytes: bytes.count, on: id, at: clock)
            records[index].ingest = ingest
            perform(outputs, record: index)
            return
        }
        guard case .hello(let hello) = message else {
            problems.append("the first message on \(id) was not hello")
            return
        }
        attach(hello, on: id)
    }

    /// The registry's rule: the run's newest session continues, after its still-open connection (found silent by a
    /// probe: the app made a new one) is dropped; a new session only for the first hello ever.
    private func attach(_ hello: Hello, on id: ConnectionID) {
        if let index = records.indices.last {
            let record = records[index]
            if let old = record.connection, network[old]?.daemonSideOpen == true {
                let alive = network[old]?.appSideOpen == true && network[old]?.toAppFlows == true
                    && network[old]?.toDaemonFlows == true
                guard !alive else {
                    problems.append("a second live connection of the run said hello")
                    return
                }
                note("probe of \(old) unanswered: dropping it for \(id)")
                daemonCloses(old, tellApp: false)
            }
            guard records[index].finishWhenWritable == nil else {
                // The previous connection's file is still being finished on a stalled disk: the daemon cannot continue
                // the session yet and refuses the hello (after waiting, in the daemon); the app tries again later.
                note("hello on \(id) refused: a stalled finish")
                daemonCloses(id, tellApp: true)
                return
            }
            records[index].ingest = AppIngest(resumingSessionID: "s", from: records[index].resumePoint,
                                              maxStateBytes: 1 << 20)
            records[index].finished = false
            records[index].endState = .live
            bind(id, to: index, hello: hello, resumed: true)
            return
        }
        let record = SimulatedRecord(initialState: hello.state)
        record.ingest = AppIngest(newSessionID: "s", hello: hello, maxStateBytes: 1 << 20)
        records.append(record)
        bind(id, to: records.count - 1, hello: hello, resumed: false)
    }

    private func bind(_ id: ConnectionID, to index: Int, hello: Hello, resumed: Bool) {
        bound[id] = index
        records[index].connection = id
        guard var ingest = records[index].ingest else { return }
        let outputs = ingest.connect(id, hello: hello, resumed: resumed, at: clock)
        records[index].ingest = ingest
        note("daemon binds \(id) (resumed: \(resumed), accounted \(ingest.accountedThrough))")
        perform(outputs, record: index)
    }

    private var clock: IngestClock { IngestClock(monotonic: now, wall: 1_000_000 + now) }

    private func perform(_ outputs: [IngestOutput], record index: Int) {
        let record = records[index]
        for output in outputs {
            switch output {
            case .append(let row):
                if !record.append(row) { problems.append("row \(row.index) was numbered out of the file's order") }
            case .send(let message, let target):
                guard let arrival = network.arrivalAtApp(target, now: now, delay: latency) else { continue }
                schedule(.arriveAtApp(target, message), after: arrival - now)
            case .close(let target, _, let reason):
                note("daemon closes \(target): \(reason)")
                daemonCloses(target, tellApp: true)
            }
        }
        if !record.pending.isEmpty { scheduleCommit(index) }
        if record.ingest?.owesAcknowledgment == true && !record.tickScheduled {
            record.tickScheduled = true
            schedule(.ackTick(index), after: 0.05)
        }
    }

    private func scheduleCommit(_ index: Int) {
        guard !records[index].commitScheduled else { return }
        records[index].commitScheduled = true
        schedule(.commit(index), after: flushInterval)
    }

    private func commit(_ index: Int) {
        let record = records[index]
        record.commitScheduled = false
        guard daemonUp, !record.pending.isEmpty else { return }
        guard disk == .ok else {
            scheduleCommit(index)  // the writer retries
            return
        }
        guard let last = record.commit(), var ingest = record.ingest else { return }
        note("commit through row \(last)")
        let outputs = ingest.committed(through: last, at: clock)
        record.ingest = ingest
        perform(outputs, record: index)
    }

    private func ackTick(_ index: Int) {
        let record = records[index]
        record.tickScheduled = false
        guard daemonUp, var ingest = record.ingest else { return }
        let outputs = ingest.tick(at: clock)
        record.ingest = ingest
        perform(outputs, record: index)
    }

    /// The daemon's side of `id` closes (the app closed it, a probe or keepalive gave it up, the machine closed it):
    /// the session's connection ends and its file is finished.
    private func daemonCloses(_ id: ConnectionID, tellApp: Bool) {
        guard var connection = network[id], connection.daemonSideOpen else { return }
        if tellApp, let arrival = network.arrivalAtApp(id, now: now, delay: latency) {
            schedule(.appSeesClose(id), after: arrival - now)
        }
        connection = network[id] ?? connection
        connection.daemonSideOpen = false
        network[id] = connection
        guard daemonUp, let index = bound[id], var ingest = records[index].ingest else { return }
        guard let endState = ingest.disconnect(id, daemonStopping: stopping) else { return }
        records[index].ingest = ingest
        note("daemon detaches \(id): \(endState)")
        records[index].connection = nil
        finishFile(index, endState: endState, byDaemonStop: stopping)
    }

    /// Finishes the session file: commits what waits (a stalled disk makes the finish wait; a full one loses it).
    private func finishFile(_ index: Int, endState: SessionEndState, byDaemonStop: Bool) {
        let record = records[index]
        switch disk {
        case .stalled:
            record.finishWhenWritable = (endState, byDaemonStop)
            return
        case .full:
            if !record.pending.isEmpty {
                note("final write failed: \(record.pending.count) rows never reached the file")
                record.losePending()
            }
            record.endState = .interrupted
        case .ok:
            _ = record.commit()
            record.endState = endState
        }
        record.endedByDaemonStop = byDaemonStop && record.endState == .clean
        record.ingest = nil
        record.finished = true
    }

    private func keepalive() {
        if daemonUp {
            for connection in network.connections.values where connection.daemonSideOpen {
                let answers = connection.appSideOpen && connection.toAppFlows && connection.toDaemonFlows
                if answers {
                    network[connection.id]?.daemonLastHeard = max(connection.daemonLastHeard,
                                                                   now - keepaliveInterval / 2)
                } else if now - connection.daemonLastHeard > keepaliveInterval + keepaliveTimeout {
                    note("keepalive gives \(connection.id) up")
                    daemonCloses(connection.id, tellApp: false)
                }
            }
        }
        if !queue.isEmpty { schedule(.keepalive, after: 0.25) }
    }

    // MARK: - Faults

    private func inject(_ fault: Fault) {
        guard !appStopped else { return }
        faults.append(fault.description)
        note("fault: \(fault)")
        switch fault {
        case .resetBoth:
            guard let id = appConnection else { return }
            network[id]?.toDaemonFlows = false
            network[id]?.toAppFlows = false
            appSeesClose(id)
            daemonCloses(id, tellApp: false)
        case .halfOpen:
            guard let id = appConnection else { return }
            network[id]?.toDaemonFlows = false
            network[id]?.toAppFlows = false
            appSeesClose(id)
        case .blackHole:
            guard let id = appConnection else { return }
            network[id]?.toDaemonFlows = false
            network[id]?.toAppFlows = false
        case .diskStall(let seconds):
            disk = .stalled
            schedule(.diskHeals, after: seconds)
        case .diskFull(let seconds):
            disk = .full
            schedule(.diskHeals, after: seconds)
        case .daemonCrash(let seconds):
            guard daemonUp else { return }
            daemonUp = false
            for record in records {
                record.losePending()
                record.ingest = nil
                record.connection = nil
                record.finishWhenWritable = nil
                record.commitScheduled = false
                record.tickScheduled = false
            }
            bound = [:]
            for connection in network.connections.values where connection.daemonSideOpen {
                network[connection.id]?.daemonSideOpen = false
                network[connection.id]?.toDaemonFlows = false
                network[connection.id]?.toAppFlows = false
                if connection.id == appConnection { appSeesClose(connection.id) }
            }
            schedule(.daemonRestarts, after: seconds)
        case .daemonStop(let seconds):
            guard daemonUp else { return }
            stopping = true
            for connection in network.connections.values where connection.daemonSideOpen {
                daemonCloses(connection.id, tellApp: true)
            }
            daemonUp = false
            bound = [:]
            schedule(.daemonRestarts, after: seconds)
        }
    }

    // MARK: - The end

    /// Heals the network and the disk, gives the app time to deliver, then has it say goodbye (or kills it).
    private func finish() {
        if disk != .ok { handle(.diskHeals) }
        if !daemonUp { handle(.daemonRestarts) }
        if finishDeadline == nil { finishDeadline = now + 30 }
        waitForDelivery(until: finishDeadline ?? now)
    }

    private func waitForDelivery(until deadline: Double) {
        // Keeps the app turning until everything is accounted for (or the deadline), then ends it.
        // As the pipeline answers: nothing is delivered while the outbox still holds something.
        let handedOn = outbox.isEmpty && dispatched == UInt64(actions)
        finalVerdict = handedOn
            ? delivery.verdict(rangeOpen: frames.rangeOpen, lostInOutbox: frames.counts.lostInOutbox) : .pending
        if (finalVerdict != .pending && handedOn) || now >= deadline {
            endApp()
            return
        }
        schedule(.finish, after: 0.1)
    }

    private func endApp() {
        appStopped = true
        let kill = Int.random(in: 0..<5, using: &random) == 0
        note("app ends: verdict \(finalVerdict), \(kill ? "killed" : "goodbye if it can")")
        guard let id = appConnection else { return }
        if !kill, delivery.maySayGoodbye(rangeOpen: frames.rangeOpen), outbox.isEmpty {
            saidGoodbye = true
            sendToDaemon(WireCodec.encode(AppMessage.goodbye(Goodbye(seq: frames.latestSeq))))
        }
        killed = kill
        appCloses(id)
    }

    // MARK: - What the record must say

    /// Every rule the committed record breaks (empty when it holds): each action number recorded once or inside a
    /// `lost` range, nothing counted twice, the LOST count equal to the ranges, the states a reader takes as known
    /// equal to the app's, one session for the run, `delivered` only with nothing lost, `clean` only after a goodbye
    /// with everything accounted for.
    var violations: [String] {
        var found = problems
        guard let record = records.first else {
            return found + (dispatched > 0 ? ["no session was recorded"] : [])
        }
        if records.count != 1 { found.append("the run was recorded in \(records.count) sessions") }
        var seen: [UInt64: String] = [:]
        var lostCount: UInt64 = 0
        var accounted: UInt64 = 0
        for row in record.mainLine {
            if row.event.kind == .action, let seq = row.event.appSeq.map(UInt64.init) {
                if let earlier = seen[seq] { found.append("action \(seq) at row \(row.index) was already \(earlier)") }
                seen[seq] = "recorded at row \(row.index)"
                accounted = max(accounted, seq)
            }
            if let range = SimulatedRecord.lostRange(row) {
                for seq in range {
                    if let earlier = seen[seq] { found.append("action \(seq) lost at row \(row.index) was already \(earlier)") }
                    seen[seq] = "lost at row \(row.index)"
                }
                let declared = UInt64(row.event.action?["actionsLost"]?.int64Value ?? -1)
                if declared != UInt64(range.count) { found.append("lost row \(row.index) says \(declared) for \(range)") }
                lostCount += UInt64(range.count)
                accounted = max(accounted, range.upperBound)
            }
        }
        if accounted > 0 {
            let missing = (1...accounted).filter { seen[$0] == nil }
            if !missing.isEmpty { found.append("actions neither recorded nor lost: \(missing.prefix(10))") }
        }
        if accounted > dispatched { found.append("the record accounts for \(accounted), the app dispatched \(dispatched)") }
        if record.resumePoint.lostActions != lostCount { found.append("LOST \(record.resumePoint.lostActions) ≠ \(lostCount)") }
        if finalVerdict == .delivered {
            if lostCount > 0 { found.append("the app said delivered, the record counts \(lostCount) lost") }
            if accounted < dispatched { found.append("the app said delivered, the record stops at \(accounted) of \(dispatched)") }
        }
        if finalVerdict == .incomplete && lostCount == 0 && frames.counts.lostInOutbox == 0 {
            found.append("the app said incomplete, but nothing was lost")
        }
        if record.endState == .clean && !record.endedByDaemonStop {
            if !saidGoodbye { found.append("the session ended clean without a goodbye") }
            if accounted != dispatched { found.append("the session ended clean at \(accounted) of \(dispatched)") }
        }
        if saidGoodbye && !killed && record.endState != .clean && finalVerdict != .pending {
            found.append("the app said goodbye with everything accounted for, the session ended \(record.endState)")
        }
        // The states readers take as known are the app's.
        for row in record.mainLine where row.event.kind == .action || row.event.kind == .snapshot {
            guard let seq = row.event.appSeq, record.knownAfter(index: row.index) else { continue }
            if row.stateAfter != ["n": .int(seq)] {
                found.append("row \(row.index) (\(row.event.kind) \(seq)) reads as known with \(row.stateAfter)")
                break
            }
        }
        return found
    }
}

/// The pipeline's request for a closing snapshot, raised inside the frame builder and taken by the simulation.
final class SnapshotFlag: @unchecked Sendable {  // one thread
    private var raised = false

    func raise() { raised = true }

    func take() -> Bool {
        defer { raised = false }
        return raised
    }
}
