import RewindSessionFile
import RewindWire

/// Why the daemon could not start, or why a request to it failed, as one sentence a user can act on, with the
/// stable protocol code a control client receives.
package struct DaemonError: Error, CustomStringConvertible, Sendable {
    /// The sentence.
    package let description: String
    /// The code sent to control clients (see docs/PROTOCOL.md).
    package let code: WireErrorCode

    /// An error with that sentence and code.
    package init(_ description: String, code: WireErrorCode = .internal) {
        self.description = description
        self.code = code
    }
}
