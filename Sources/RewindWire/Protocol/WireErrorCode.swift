/// Stable error codes carried by `error` messages and control responses. The raw values are part of the
/// protocol and never change meaning.
///
/// Threading: a value type; safe to share.
public enum WireErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The frame is not valid JSON (or not a JSON object).
    case badJSON = "bad_json"
    /// The frame is not valid UTF-8.
    case badUTF8 = "bad_utf8"
    /// The frame nests deeper than the receiver's limit.
    case tooDeep = "too_deep"
    /// The frame is larger than the receiver's limit.
    case tooBig = "too_big"
    /// The message `type` is not one this side knows (the message is ignored).
    case unknownType = "unknown_type"
    /// A required field is missing; the message names it (`action.seq`).
    case missingField = "missing_field"
    /// A field has the wrong type or an invalid value; the message names it.
    case badField = "bad_field"
    /// The peer speaks a protocol version this side does not support.
    case unsupportedProtocol = "unsupported_protocol"
    /// The first message on an app connection must be `hello`.
    case helloRequired = "hello_required"
    /// An `action` arrived whose `seq` is not the previous one plus 1; the daemon asks for a snapshot.
    case outOfOrder = "out_of_order"
    /// A `patch` did not apply to the state the daemon holds; the daemon asks for a snapshot.
    case patchFailed = "patch_failed"
    /// The token is missing or wrong.
    case unauthorized = "unauthorized"
    /// The connection came from a browser origin that is not allowed.
    case originRefused = "origin_refused"
    /// The control command needs a live (connected) session and this one is not.
    case sessionNotLive = "session_not_live"
    /// The app answered a command with `ok: false` (for example an action it cannot decode), or did not answer in
    /// time. The connection goes on.
    case commandFailed = "command_failed"
    /// No session with this id exists.
    case unknownSession = "unknown_session"
    /// The receiver is shedding load; the sender should slow down (the connection goes on).
    case overloaded = "overloaded"
    /// An unexpected failure on the receiver's side; the connection goes on.
    case `internal` = "internal"

    /// The WebSocket close code the sender of this error closes the connection with right after sending it,
    /// or `nil` when the connection goes on: 1002 (protocol error) for `unsupported_protocol` and
    /// `hello_required`; 1007 (invalid payload) for `bad_json` and `bad_utf8`; 1009 (message too big) for
    /// `too_big` and `too_deep`; 1008 (policy violation) for `unauthorized` and `origin_refused`.
    public var closeCode: UInt16? {
        switch self {
        case .unsupportedProtocol, .helloRequired: return 1002
        case .badJSON, .badUTF8: return 1007
        case .tooBig, .tooDeep: return 1009
        case .unauthorized, .originRefused: return 1008
        case .unknownType, .missingField, .badField, .outOfOrder, .patchFailed, .sessionNotLive, .commandFailed,
             .unknownSession, .overloaded, .internal:
            return nil
        }
    }
}
