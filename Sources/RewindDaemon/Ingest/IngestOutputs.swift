import RewindSessionFile

/// Where ``AppIngest`` puts its outputs while it works: collected into an array (the machine's value-returning
/// entry points, which tests read), or handed one by one to the driver as they are made.
///
/// Handing them over at once matters for memory traffic, not only latency: an ``IngestRow`` holds the state after
/// its event, and while a row of a batch waits in an array that state is shared, so the next event's patch copies
/// every collection along its path (copy-on-write) before changing it. A row carried out at once lets go of the
/// state before the next patch applies, and the patch changes the state in place.
///
/// Threading: a value used by one call of the machine.
package struct IngestOutputs {
    /// The outputs collected so far (always empty when they are handed over).
    package private(set) var collected: [IngestOutput] = []
    private let handOver: ((IngestOutput) -> Void)?

    /// Outputs collected into ``collected``.
    package init() { handOver = nil }

    /// Outputs handed to `handOver` as they are made, in order.
    package init(handingOverTo handOver: @escaping (IngestOutput) -> Void) { self.handOver = handOver }

    /// Adds `output` after the ones before it.
    package mutating func append(_ output: IngestOutput) {
        if let handOver { handOver(output) } else { collected.append(output) }
    }
}
