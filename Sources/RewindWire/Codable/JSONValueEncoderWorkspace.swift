/// Encoders kept from one ``JSONValueEncoder/encode(_:memo:reusing:)`` call to the next, so that encoding the same
/// type again and again (the inspector encodes every state of the app) follows the object layouts learnt before and
/// allocates no encoder.
///
/// Threading: used by one encode at a time (the caller's confinement; the inspector's pipeline thread).
public final class JSONValueEncoderWorkspace {
    /// The root encoder of the last successful encoding; nil before the first, and after an error.
    var root: ValueEncoder?

    /// An empty workspace.
    public init() {}
}
