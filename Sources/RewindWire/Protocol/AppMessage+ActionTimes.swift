extension AppMessage {
    /// The `time` of the first action the message carries (an `action`, or a `batch`'s first event); nil for a message
    /// without actions. For readers of recorded messages that follow the app's own clock (capture files).
    package var firstActionTime: Double? {
        switch self {
        case .action(let event): return event.time
        case .batch(let events): return events.first?.time
        default: return nil
        }
    }

    /// The latest `time` of the actions the message carries; nil for a message without actions.
    package var lastActionTime: Double? {
        switch self {
        case .action(let event): return event.time
        case .batch(let events): return events.map(\.time).max()
        default: return nil
        }
    }
}
