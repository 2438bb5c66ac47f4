/// The abilities an app names in `hello.capabilities` (PROTOCOL.md §4): what the daemon may ask of it.
///
/// An app that does not name `jump`, `dispatch` or `replay` is watched read-only for that ability: the daemon
/// refuses the control commands that need it (`replay` is also what `skip` and `verify` need) and the timeline says
/// which ability the app did not offer.
///
/// Threading: constants; any thread.
public enum WireCapability {
    /// The app replaces its state with one the daemon pushes (`jump`).
    public static let jump = "jump"
    /// The app dispatches an action the daemon pushes (`dispatch`).
    public static let dispatch = "dispatch"
    /// The app runs actions through its reducer with effects muted (`replay`; also `skip` and `verify`).
    public static let replay = "replay"
    /// The app may send `batch` frames.
    public static let batch = "batch"
    /// The app reads `ack` (the daemon then tells it how far its messages are recorded, docs/PROTOCOL.md §3.4).
    public static let ack = "ack"
}
