/// Reported through ``StoreConfiguration/onRunawayLoop`` when one `dispatch` call led to more synchronously chained
/// actions than ``StoreConfiguration/runawayThreshold`` (for example a subscriber that dispatches on every
/// notification, or an effect that sends the action that returned it). The store then drops the queued actions,
/// which stops the loop; every state committed before that stays committed.
///
/// Threading: an immutable value; `Sendable`.
public struct RunawayLoop: Sendable, Equatable, CustomStringConvertible {
    /// The configured threshold.
    public let threshold: Int
    /// How many actions (and state replacements) were processed before stopping.
    public let processedCount: Int
    /// How many queued actions were dropped to stop the loop.
    public let droppedCount: Int
    /// A description of the action that would have been processed next.
    public let nextAction: String

    /// Creates a report.
    public init(threshold: Int, processedCount: Int, droppedCount: Int, nextAction: String) {
        self.threshold = threshold
        self.processedCount = processedCount
        self.droppedCount = droppedCount
        self.nextAction = nextAction
    }

    /// A sentence describing the loop.
    public var description: String {
        "Runaway loop stopped: \(processedCount) actions were processed for one dispatch (threshold \(threshold)); "
            + "\(droppedCount) queued actions were dropped, next was \(nextAction)."
    }
}
