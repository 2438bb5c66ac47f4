/// Constants of the Rewind wire protocol (see docs/PROTOCOL.md).
///
/// Threading: constants only.
public enum WireProtocol {
    /// The protocol version this library speaks. Sent in `hello` and `welcome`; a message announcing a
    /// higher version is refused with ``WireErrorCode/unsupportedProtocol``.
    public static let version: Int = 1
    /// WebSocket subprotocol of app ↔ daemon connections.
    public static let appSubprotocol = "rewind.v1"
    /// WebSocket subprotocol of control-client (CLI) ↔ daemon connections.
    public static let controlSubprotocol = "rewind.control.v1"
    /// The daemon's default TCP port on 127.0.0.1.
    public static let defaultPort = 7723
}
