/// Constants of the Rewind wire protocol (see docs/PROTOCOL.md).
///
/// Threading: constants only.
public enum WireProtocol {
    /// The protocol version this library speaks. Sent in `hello` and `welcome`; a message announcing a
    /// higher version is refused with ``WireErrorCode/unsupportedProtocol``.
    ///
    /// Version 2 numbers actions by the app run's own action number (`seq` 1 is the first action the app dispatched
    /// after it attached the inspector, whatever the connection) and keeps the numbering of source locations for the
    /// whole run (`hello.sources`), so that messages sent again after a reconnect travel as they were first sent.
    /// Version 1 numbers actions per connection (`seq` 1 is the first action after each `hello`); the daemon still
    /// speaks it with apps that say `"protocol": 1` (docs/PROTOCOL.md §8).
    public static let version: Int = 2
    /// The oldest protocol version the daemon still speaks with apps.
    public static let oldestVersion: Int = 1
    /// WebSocket subprotocol of app ↔ daemon connections.
    public static let appSubprotocol = "rewind.v1"
    /// WebSocket subprotocol of control-client (CLI) ↔ daemon connections.
    public static let controlSubprotocol = "rewind.control.v1"
    /// The daemon's default TCP port on 127.0.0.1.
    public static let defaultPort = 7723
}
