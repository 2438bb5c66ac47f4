import Rewind
import RewindTesting
import Testing
@testable import login

@Suite("login sample: the simulated authentication API")
@MainActor
struct SimulatedAuthenticationAPITests {
    func outcomes(failureRate: Double, seed: UInt64, count: Int = 40) async -> [Bool] {
        let clock = TestClock()
        let api = SimulatedAuthenticationAPI(clock: clock, latency: .zero, failureRate: failureRate, seed: seed)
        var results: [Bool] = []
        for _ in 0..<count {
            if case .success = await api.logIn(username: "bob", password: "pw") { results.append(true) } else {
                results.append(false)
            }
        }
        return results
    }

    @Test("any password but 'wrong' logs in, with a display name made from the username")
    func credentials() async {
        let api = SimulatedAuthenticationAPI(clock: TestClock(), latency: .zero)
        #expect(await api.logIn(username: "bob", password: "pw") == .success(User(username: "bob", displayName: "Bob")))
        #expect(await api.logIn(username: "bob", password: "wrong")
            == .failure(LoginFailure(reason: "Wrong username or password.")))
    }

    @Test("the answer comes after the latency on the injected clock")
    func latency() async {
        let clock = TestClock()
        let api = SimulatedAuthenticationAPI(clock: clock, latency: .seconds(2))
        var answered = false
        Task { @MainActor in
            _ = await api.logIn(username: "bob", password: "pw")
            answered = true
        }
        await clock.advance(by: .milliseconds(1999))
        #expect(!answered)
        await clock.advance(by: .milliseconds(1))
        #expect(answered)
    }

    @Test("a seeded failure rate fails about that share of requests, the same ones for the same seed")
    func seededFailures() async {
        let first = await outcomes(failureRate: 0.5, seed: 7)
        #expect(await outcomes(failureRate: 0.5, seed: 7) == first)
        #expect(await outcomes(failureRate: 0.5, seed: 8) != first)
        #expect((10...30).contains(first.filter { !$0 }.count))
        #expect(await outcomes(failureRate: 0, seed: 7).allSatisfy { $0 })
        #expect(await outcomes(failureRate: 1, seed: 7).allSatisfy { !$0 })
    }
}
