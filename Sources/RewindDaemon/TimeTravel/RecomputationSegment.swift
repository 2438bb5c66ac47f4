import RewindSessionFile
import RewindWire

/// One run of a skip's recomputation: the recorded actions that ran one after the other in the app, and the full
/// state the run starts from when the recording put one in place before it (a `snapshot`, `jump`, `replay` or
/// `reconnect` of the main line); nil: it continues from where the previous run ended.
///
/// Threading: a plain value, confined to the daemon's control queue.
struct RecomputationSegment {
    /// The event that put a state in place before the run, and that state.
    var reset: (event: RecordedEvent, state: JSONValue)?
    /// The actions, in order (each with its recorded `action`).
    var actions: [RecordedEvent]
}
