/// Why a JSON Patch could not be read or applied.
///
/// Threading: a value type; safe to share.
public struct JSONPatchError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The 0-based index of the failing operation in the patch.
    public let operationIndex: Int
    /// The pointer (text form) the failure concerns; empty when it is not about a location.
    public let pointer: String
    /// What went wrong (e.g. `no member "b" in the object at /a`).
    public let reason: String

    /// An error for operation `operationIndex`.
    public init(operationIndex: Int, pointer: String, reason: String) {
        self.operationIndex = operationIndex
        self.pointer = pointer
        self.reason = reason
    }

    /// `operation <n> (<pointer>): <reason>`.
    public var description: String {
        pointer.isEmpty
            ? "operation \(operationIndex): \(reason)"
            : "operation \(operationIndex) (\(pointer)): \(reason)"
    }
}
