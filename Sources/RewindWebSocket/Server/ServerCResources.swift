import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C memory a server's libwebsockets context points into for its whole life: the protocols array
/// and its names, the interface string, the shared write buffer and the service loop's timers.
///
/// Threading: created by `start()`, then used by the service thread only; freed (deinit) after the
/// context is destroyed.
final class ServerCResources {
    /// The protocols array, one entry per subprotocol plus the zeroed terminator lws expects.
    let protocols: UnsafeMutablePointer<lws_protocols>
    /// The address to bind, or nil for every interface.
    let interface: UnsafeMutablePointer<CChar>?
    /// `rewind_lws_pre()` bytes of headroom plus one fragment: every lws_write goes through it.
    let writeBuffer: UnsafeMutablePointer<UInt8>
    /// A timer that wakes the service loop while it waits for connections to close at shutdown.
    let tick: UnsafeMutablePointer<lws_sorted_usec_list_t>
    /// A timer that wakes the service loop to check connections against their timeouts and keepalive.
    let sweep: UnsafeMutablePointer<lws_sorted_usec_list_t>
    /// A timer that wakes the service loop while probes (``WebSocketServer/probe(_:timeout:completion:)``) wait.
    let probeTimer: UnsafeMutablePointer<lws_sorted_usec_list_t>
    private let protocolCount: Int
    private let names: [UnsafeMutablePointer<CChar>]

    init(subprotocols: [String], host: String, receiveBytes: Int, fragmentBytes: Int) {
        names = subprotocols.map { strdup($0)! }
        protocolCount = subprotocols.count + 1
        protocols = .allocate(capacity: protocolCount)
        protocols.initialize(repeating: lws_protocols(), count: protocolCount)
        for (index, name) in names.enumerated() {
            protocols[index].name = UnsafePointer(name)
            protocols[index].callback = webSocketServerCallback
            protocols[index].per_session_data_size = MemoryLayout<UnsafeMutableRawPointer?>.size
            protocols[index].rx_buffer_size = receiveBytes
            protocols[index].tx_packet_size = fragmentBytes
            protocols[index].id = UInt32(index)
        }
        switch host.lowercased() {
        case "", "0.0.0.0":
            interface = nil
        case "localhost":
            interface = strdup("127.0.0.1")
        default:
            interface = strdup(host)
        }
        writeBuffer = .allocate(capacity: rewind_lws_pre() + fragmentBytes)
        tick = .allocate(capacity: 1)
        tick.initialize(to: lws_sorted_usec_list_t())
        sweep = .allocate(capacity: 1)
        sweep.initialize(to: lws_sorted_usec_list_t())
        probeTimer = .allocate(capacity: 1)
        probeTimer.initialize(to: lws_sorted_usec_list_t())
    }

    deinit {
        protocols.deinitialize(count: protocolCount)
        protocols.deallocate()
        names.forEach { free($0) }
        free(interface)
        writeBuffer.deallocate()
        tick.deinitialize(count: 1)
        tick.deallocate()
        sweep.deinitialize(count: 1)
        sweep.deallocate()
        probeTimer.deinitialize(count: 1)
        probeTimer.deallocate()
    }
}
