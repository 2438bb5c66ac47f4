/// How many inputs of a pass got past each reader: parsed as JSON, decoded as each kind of message, read as a
/// patch, applied as one. A pass whose inputs are all rejected early would test nothing deep; the short pass
/// checks that every reader accepted some.
///
/// Threading: a value type; each fuzzing pass owns its own.
struct FuzzCoverage: CustomStringConvertible {
    /// Inputs that parsed as JSON (with the default limits).
    var parsed = 0
    /// Inputs decoded as an app message, a daemon message, a control request, a control response.
    var appMessages = 0, daemonMessages = 0, controlRequests = 0, controlResponses = 0
    /// Inputs read as a JSON Patch, and patches that applied to at least one document.
    var patches = 0, appliedPatches = 0

    /// Adds the decoder counts of `other`.
    mutating func add(decodersOf other: FuzzCoverage) {
        appMessages += other.appMessages
        daemonMessages += other.daemonMessages
        controlRequests += other.controlRequests
        controlResponses += other.controlResponses
    }

    var description: String {
        "parsed \(parsed), app messages \(appMessages), daemon messages \(daemonMessages), control requests "
            + "\(controlRequests), control responses \(controlResponses), patches \(patches) (applied \(appliedPatches))"
    }
}
