import Foundation
@_spi(Benchmarks) @testable import RewindInspector
import RewindWire
import Testing

/// What the outbox charges a held state: the storage a change copied (copy-on-write leaves the rest shared), as the
/// encoding memo measures it, rather than the state's whole size.
@Suite("State charges: what a held state does not share")
struct StateChargeTests {
    struct Item: Codable, Equatable {
        var id: Int
        var value: Int
    }

    struct Section: Codable, Equatable {
        var id: Int
        var items: [Item]
    }

    struct Sections: Codable, Equatable {
        var sections: [Section]
    }

    private static func state(sections: Int, items: Int) -> Sections {
        Sections(sections: (0..<sections).map { section in
            Section(id: section, items: (0..<items).map { Item(id: $0, value: 0) })
        })
    }

    /// A state encoder with the memo always on, prepared with `initial`.
    private static func encoder(preparedWith initial: Sections) -> StateEncoder<Sections, Int> {
        var configuration = InspectorConfiguration()
        configuration.memoMinimumStateBytes = 0
        var encoder = StateEncoder<Sections, Int>(coding: .codable, redactor: Redactor(paths: []),
                                                  configuration: configuration, stateType: "Sections")
        _ = encoder.prepare(initial, now: 0)
        return encoder
    }

    @Test("one item changed: the memo counts the changed section's items and the array of sections, not the rest")
    func unsharedBytesFollowTheChangedPath() throws {
        let memo = StateEncodingMemo(minimumCount: 8)
        var state = Self.state(sections: 100, items: 100)
        _ = try memo.encode(state)
        let everything = memo.lastUnsharedBytes
        #expect(everything >= 100 * 100 * MemoryLayout<Item>.stride, "the first encoding found every array new")

        state.sections[42].items[7].value = 1
        _ = try memo.encode(state)
        let itemsBytes = state.sections[42].items.capacity * MemoryLayout<Item>.stride
        let sectionsBytes = state.sections.capacity * MemoryLayout<Section>.stride
        #expect(memo.lastUnsharedBytes >= itemsBytes + sectionsBytes)
        #expect(memo.lastUnsharedBytes <= itemsBytes + sectionsBytes + 256, "\(memo.lastUnsharedBytes) bytes")
        #expect(memo.lastUnsharedBytes * 40 < everything)

        _ = try memo.encode(state)
        #expect(memo.lastUnsharedBytes == 0, "nothing changed, nothing new")
    }

    @Test("the encoder charges a held state the changed storage and half again once the memo measured it, its whole size before")
    func encoderChargeFollowsTheMemo() throws {
        var state = Self.state(sections: 50, items: 100)
        var encoder = Self.encoder(preparedWith: state)
        defer { encoder.stop() }
        #expect(encoder.stateCharge == encoder.stateBytes, "nothing measured yet: the whole state")
        state.sections[3].items[1].value = 9
        _ = encoder.encodeForSending(state)
        let changed = state.sections[3].items.capacity * MemoryLayout<Item>.stride
            + state.sections.capacity * MemoryLayout<Section>.stride
        #expect(encoder.stateCharge >= changed + changed / 2)
        #expect(encoder.stateCharge * 10 < encoder.stateBytes, "\(encoder.stateCharge) of \(encoder.stateBytes) bytes")
    }

    @Test("before any state is sent, the newest queued state is probed through the memo")
    func probeMeasuresBeforeTheFirstSend() throws {
        var state = Self.state(sections: 50, items: 100)
        var encoder = Self.encoder(preparedWith: state)
        defer { encoder.stop() }
        state.sections[0].items[0].value = 1
        let probed = encoder.probeUnshared(newest: { (nil, state) })
        #expect(probed)
        #expect(encoder.stateCharge * 10 < encoder.stateBytes)
        let probedAgain = encoder.probeUnshared(newest: { (nil, state) })
        #expect(!probedAgain, "once is enough")
    }

    /// The charge one section's change earns: its items and the array of sections, and half again.
    private static func oneSectionCharge(_ state: Sections) -> Int {
        let changed = state.sections[0].items.capacity * MemoryLayout<Item>.stride
            + state.sections.capacity * MemoryLayout<Section>.stride
        return changed + changed / 2 + 512
    }

    @Test("the probe measures what the newest queued state does not share with the one queued before it, not everything changed since the initial state")
    func probeMeasuresOneStep() throws {
        var state = Self.state(sections: 50, items: 100)
        var encoder = Self.encoder(preparedWith: state)
        defer { encoder.stop() }
        // Forty actions queued while the connection came up, each changing another section.
        for section in 0..<39 { state.sections[section].items[0].value = 1 }
        let previous = state
        state.sections[39].items[0].value = 1
        let queued = state
        let probed = encoder.probeUnshared(newest: { (previous, queued) })
        #expect(probed)
        #expect(encoder.stateCharge <= Self.oneSectionCharge(state) + 1024,
                "\(encoder.stateCharge) bytes: forty sections' storage would be about \(40 * Self.oneSectionCharge(state))")
    }

    @Test("the state that closes a coalesced range does not raise what every held state is charged")
    func closingStatesDoNotOvercharge() throws {
        var state = Self.state(sections: 50, items: 100)
        var encoder = Self.encoder(preparedWith: state)
        defer { encoder.stop() }
        state.sections[0].items[1].value = 2
        _ = encoder.encodeForSending(state)
        let perAction = encoder.stateCharge
        #expect(perAction <= Self.oneSectionCharge(state) + 1024)
        // Thirty actions coalesced (their states never encoded), then the state that closes the range.
        for section in 1...30 { state.sections[section].items[1].value = 2 }
        _ = encoder.encodeForSending(state, followsLastSent: false)
        #expect(encoder.stateCharge == perAction, "a range's changes are not one held state's")
        // The next action's state measures again.
        state.sections[31].items[1].value = 2
        _ = encoder.encodeForSending(state)
        #expect(encoder.stateCharge <= Self.oneSectionCharge(state) + 1024)
    }
}

/// The bound's second line: resident memory measured, not estimated.
@Suite("ResidentMemoryWatch: states refused while the process grew past the budget")
struct ResidentMemoryWatchTests {
    /// A stand-in for the process's resident memory.
    final class Reading: @unchecked Sendable {
        var bytes = 100 << 20
    }

    @Test("growth past the limit refuses states; back under three quarters, or the outbox empty, lets them in again")
    func refusesAndRecovers() {
        let reading = Reading()
        var watch = ResidentMemoryWatch(limitBytes: 64 << 20, interval: 0, read: { reading.bytes })
        var decision: Bool?
        decision = watch.check(now: 0, caughtUp: true)
        #expect(decision == nil, "the baseline")
        reading.bytes += 60 << 20
        decision = watch.check(now: 1, caughtUp: false)
        #expect(decision == nil, "within the limit")
        reading.bytes += 8 << 20
        decision = watch.check(now: 2, caughtUp: false)
        #expect(decision == true)
        reading.bytes -= 10 << 20
        decision = watch.check(now: 3, caughtUp: false)
        #expect(decision == nil, "still above three quarters")
        reading.bytes -= 20 << 20
        decision = watch.check(now: 4, caughtUp: false)
        #expect(decision == false)
        reading.bytes += 80 << 20
        decision = watch.check(now: 5, caughtUp: false)
        #expect(decision == true)
        decision = watch.check(now: 6, caughtUp: true)
        #expect(decision == false, "caught up: a new baseline")
    }

    @Test("reads at most once per interval")
    func interval() {
        let reading = Reading()
        var reads = 0
        var watch = ResidentMemoryWatch(limitBytes: 1 << 20, interval: 0.001, read: {
            reads += 1
            return reading.bytes
        })
        for step in 0..<100 { _ = watch.check(now: Double(step) * 0.0001, caughtUp: false) }
        #expect(reads == 10)
    }

    @Test("under a sanitizer (make sanitize sets REWIND_TEST_TIME_SCALE) the watch reads nothing: shadow memory is not the inspector's")
    func sanitizerTurnsTheWatchOff() {
        let sanitized = (ProcessInfo.processInfo.environment["REWIND_TEST_TIME_SCALE"].flatMap(Double.init) ?? 1) > 1
        #expect(ResidentMemory.sanitizerRuntimeLoaded == sanitized)
        #expect((ResidentMemory.currentBytesUnlessSanitized() == nil) == sanitized)
    }

    /// The block is mapped straight from the kernel (no allocator: AddressSanitizer's hands back memory it already
    /// touched), and tests running beside this one free memory too, so a reading that shrank is taken again, at most
    /// three times.
    @Test("the process's resident memory is readable here and grows with memory the process touches")
    func residentMemoryIsMeasured() throws {
        #if os(Linux) || canImport(Darwin)
        let size = 128 << 20
        var readings: [String] = []
        for _ in 0..<3 {
            let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            let block = try #require(mapped == MAP_FAILED ? nil : mapped)
            defer { munmap(block, size) }
            let before = try #require(ResidentMemory.currentBytes())
            memset(block, 1, size)
            let after = try #require(ResidentMemory.currentBytes())
            if after >= before + size / 2 { return }
            readings.append("\(before) → \(after)")
        }
        Issue.record("touching \(size) bytes never grew resident memory by half of them: \(readings)")
        #endif
    }
}
