import RewindDaemon
import RewindSessionFile
import RewindWire

/// What `rewind --version` prints: the release of this build, and the versions of the formats it speaks (a daemon
/// and an app agree on the wire protocol; session files carry the schema they follow).
enum RewindVersion {
    /// The release number of this build.
    static let release = "0.1.0"

    /// `0.1.0 (wire protocol 1, session schema 1)`.
    static var text: String {
        "\(release) (wire protocol \(WireProtocol.version), session schema \(SessionStore.schemaVersion))"
    }
}
