import Foundation
import Rewind
import SampleSupport

/// The smallest Rewind app: one number, four actions, no effects.
struct CounterState: Codable, Equatable, Sendable {
    var count = 0
}

enum CounterAction: Codable, Equatable, Sendable {
    case increment
    case decrement
    case add(Int)
    case reset
}

/// How much `decrement` subtracts: 1, unless `COUNTER_DECREMENT_STEP` says otherwise — a changed reducer to try
/// `rewind verify` on (it reports the first recorded event the changed app computes differently).
let decrementStep = ProcessInfo.processInfo.environment["COUNTER_DECREMENT_STEP"].flatMap(Int.init) ?? 1

let counterReducer = Reducer<CounterState, CounterAction> { state, action in
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= decrementStep
    case .add(let amount): state.count += amount
    case .reset: state.count = 0
    }
    return .none
}

/// Reads one typed command: `increment`, `decrement`, `add N`, `reset`.
@MainActor
func parseCounterCommand(_ line: String) throws(SampleError) -> CounterAction? {
    let words = line.split(separator: " ")
    switch (words.first, words.count) {
    case ("increment", 1), ("+", 1): return .increment
    case ("decrement", 1), ("-", 1): return .decrement
    case ("reset", 1): return .reset
    case ("add", 2):
        guard let amount = Int(words[1]) else { throw SampleError("'add' takes a whole number, got '\(words[1])'") }
        return .add(amount)
    default:
        throw SampleError("unknown command '\(line)' (try: increment, decrement, add N, reset)")
    }
}
