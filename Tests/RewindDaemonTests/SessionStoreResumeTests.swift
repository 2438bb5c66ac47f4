import Foundation
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

@Suite("Resuming sessions")
struct SessionStoreResumeTests {
    @Test("a finished session can be resumed: new events follow the old ones and every state stays exact")
    func resumeAppends() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        var app = SyntheticApp()
        let first = try store.createSession(appName: "again", protocolVersion: 1, initialState: app.state)
        var random = SeededGenerator(seed: 31)
        let before = recordSynthetic(40, into: first, app: &app, random: &random)
        first.finish(endState: .clean)

        let resumed = try store.resumeSession(first.id)
        #expect(resumed.id == first.id)
        #expect(resumed.lastIndex == 40)
        #expect(try store.openSession(first.id).metadata.endState == .live)
        #expect(throws: SessionStoreError.sessionInUse(first.id)) { try store.resumeSession(first.id) }
        let reconnectState: JSONValue = ["todos": [], "counter": 100, "filter": "done", "user": ["name": "ada", "visits": 2]]
        let reconnect = NewEvent(kind: .reconnect, label: "reconnect",
                                 patch: JSONPatch.diff(from: app.state, to: reconnectState))
        #expect(resumed.append(reconnect, stateAfter: reconnectState) == 41)
        app.state = reconnectState
        let after = recordSynthetic(30, into: resumed, app: &app, random: &random)
        resumed.finish(endState: .clean)

        let reader = try store.openSession(first.id)
        #expect(reader.eventCount == 71)
        #expect(reader.metadata.endState == .clean)
        #expect(try reader.events(1...71).map(\.index) == Array(1...71))
        #expect(try reader.state(at: 40) == before[40])
        #expect(try reader.state(at: 41) == reconnectState)
        #expect(try reader.state(at: 71) == after[30])
        #expect(throws: SessionStoreError.notFound(try SessionID(validating: "nope"))) {
            try store.resumeSession(try SessionID(validating: "nope"))
        }
    }
}
