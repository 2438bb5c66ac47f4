/// Turns protocol messages into WebSocket text-frame payloads (compact UTF-8 JSON) and back.
///
/// Decoding maps every failure to a ``WireError``: JSON problems to `bad_json` / `bad_utf8` / `too_deep` /
/// `too_big` (with the byte offset in the message), schema problems to `missing_field` / `bad_field` naming
/// the field, unknown message types to `unknown_type`, newer protocol versions to `unsupported_protocol`.
///
/// Threading: stateless; callable from any thread.
public enum WireCodec {
    // MARK: Encoding

    /// The frame payload of an app message.
    public static func encode(_ message: AppMessage) -> [UInt8] {
        switch message {
        // The frames sent once per action are written straight into bytes (the same bytes as the tree's).
        case .action(let event): return EventFrameWriter.action(event)
        case .batch(let events): return EventFrameWriter.batch(events)
        default: return message.json.serializedBytes()
        }
    }

    /// The frame payload of a daemon message.
    public static func encode(_ message: DaemonMessage) -> [UInt8] { message.json.serializedBytes() }

    /// The frame payload of a control request.
    public static func encode(_ request: ControlRequest) -> [UInt8] { request.json.serializedBytes() }

    /// The frame payload of a control response or event.
    public static func encode(_ response: ControlResponse) -> [UInt8] { response.json.serializedBytes() }

    // MARK: Decoding

    /// Reads an app message from a frame payload.
    public static func decodeAppMessage(_ frame: [UInt8], limits: JSONLimits = .default) throws(WireError) -> AppMessage {
        try AppMessage(json: try parse(frame, limits: limits))
    }

    /// Reads an app message from a frame payload in a buffer (e.g. straight from the WebSocket library).
    public static func decodeAppMessage(_ frame: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default) throws(WireError) -> AppMessage {
        try AppMessage(json: try parse(frame, limits: limits))
    }

    /// Reads a daemon message from a frame payload.
    public static func decodeDaemonMessage(_ frame: [UInt8], limits: JSONLimits = .default) throws(WireError) -> DaemonMessage {
        try DaemonMessage(json: try parse(frame, limits: limits))
    }

    /// Reads a daemon message from a frame payload in a buffer.
    public static func decodeDaemonMessage(_ frame: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default) throws(WireError) -> DaemonMessage {
        try DaemonMessage(json: try parse(frame, limits: limits))
    }

    /// Reads a control request from a frame payload.
    public static func decodeControlRequest(_ frame: [UInt8], limits: JSONLimits = .default) throws(WireError) -> ControlRequest {
        try ControlRequest(json: try parse(frame, limits: limits))
    }

    /// Reads a control response or event from a frame payload.
    public static func decodeControlResponse(_ frame: [UInt8], limits: JSONLimits = .default) throws(WireError) -> ControlResponse {
        try ControlResponse(json: try parse(frame, limits: limits))
    }

    // MARK: Helpers

    private static func parse(_ frame: [UInt8], limits: JSONLimits) throws(WireError) -> JSONValue {
        do {
            return try JSONValue(parsing: frame, limits: limits)
        } catch {
            throw WireError(error)
        }
    }

    private static func parse(_ frame: UnsafeBufferPointer<UInt8>, limits: JSONLimits) throws(WireError) -> JSONValue {
        do {
            return try JSONValue(parsing: frame, limits: limits)
        } catch {
            throw WireError(error)
        }
    }
}
