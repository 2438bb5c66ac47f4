import Rewind
import SampleSupport

/// A stand-in server with the behaviour that makes a login screen interesting: every answer takes `latency` on the
/// injected clock; the password `wrong` is refused; and a seeded share of requests fails as if the server were
/// down, the same requests on every run with the same seed.
///
/// Threading: main actor (see ``AuthenticationAPI``).
@MainActor
final class SimulatedAuthenticationAPI: AuthenticationAPI {
    /// The password this server always refuses.
    static let wrongPassword = "wrong"

    private let clock: any EffectClock
    private let latency: Duration
    private let failureRate: Double
    private var random: SplitMix64

    /// - Parameters:
    ///   - clock: The clock the latency is waited on.
    ///   - latency: How long each answer takes.
    ///   - failureRate: The share of requests (0...1) that fail with "server not responding".
    ///   - seed: Chooses which requests fail.
    init(clock: any EffectClock, latency: Duration, failureRate: Double = 0, seed: UInt64 = 1) {
        self.clock = clock
        self.latency = latency
        self.failureRate = failureRate
        self.random = SplitMix64(seed: seed)
    }

    func logIn(username: String, password: String) async -> Result<User, LoginFailure> {
        let unlucky = random.nextUnitDouble() < failureRate
        do {
            try await clock.sleep(for: latency)
        } catch {
            return .failure(LoginFailure(reason: "cancelled"))
        }
        if unlucky {
            return .failure(LoginFailure(reason: "The server is not responding. Try again."))
        }
        if password == Self.wrongPassword {
            return .failure(LoginFailure(reason: "Wrong username or password."))
        }
        return .success(User(username: username, displayName: username.prefix(1).uppercased() + username.dropFirst()))
    }
}
