import Rewind

/// A small counter feature used across the specifications.
struct Counter: Equatable, Codable, Sendable {
    var count = 0
    var label = ""
}

enum CounterAction: Equatable, Codable, Sendable {
    case increment
    case decrement
    case add(Int)
    case setLabel(String)
}

extension Reducer where State == Counter, Action == CounterAction {
    static let counter = Reducer { state, action in
        switch action {
        case .increment: state.count += 1
        case .decrement: state.count -= 1
        case .add(let amount): state.count += amount
        case .setLabel(let label): state.label = label
        }
        return .none
    }
}

/// Collects what happened, in order, for assertions on ordering.
@MainActor
final class EventLog {
    private(set) var events: [String] = []

    func append(_ event: String) {
        events.append(event)
    }

    func clear() {
        events.removeAll()
    }
}

/// Collects reports sent to the store's hooks.
@MainActor
final class HookLog {
    var programmingErrors: [ProgrammingError] = []
    var runawayLoops: [RunawayLoop] = []

    func configuration(
        runawayThreshold: Int = 10_000,
        deduplicates: Bool = true,
        clock: any EffectClock = SystemClock()
    ) -> StoreConfiguration {
        StoreConfiguration(
            deduplicatesEquatableValues: deduplicates,
            runawayThreshold: runawayThreshold,
            clock: clock,
            onRunawayLoop: { [weak self] in self?.runawayLoops.append($0) },
            onProgrammingError: { [weak self] in self?.programmingErrors.append($0) }
        )
    }
}

/// An object whose lifetime ends a subscription.
@MainActor
final class Subscriber {
    var received: [Int] = []
}
