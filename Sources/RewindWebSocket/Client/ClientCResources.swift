import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C memory a client context points into for its whole life: its one protocol (and terminator),
/// the shared write buffer and the shutdown timer.
///
/// Threading: created and used by one client service thread; freed (deinit) after its context is
/// destroyed.
final class ClientCResources {
    /// The protocols array: the client's protocol, then the zeroed terminator lws expects.
    let protocols: UnsafeMutablePointer<lws_protocols>
    /// The local protocol's name, passed as `local_protocol_name` so connections use its callback.
    let protocolName: UnsafeMutablePointer<CChar>
    /// `rewind_lws_pre()` bytes of headroom plus one fragment: every lws_write goes through it.
    let writeBuffer: UnsafeMutablePointer<UInt8>
    /// A timer that wakes the service loop while it waits for the connection to close at shutdown.
    let tick: UnsafeMutablePointer<lws_sorted_usec_list_t>

    init(receiveBytes: Int, fragmentBytes: Int) {
        protocolName = strdup("rewind-client")!
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(protocolName)
        protocols[0].callback = webSocketClientCallback
        protocols[0].rx_buffer_size = receiveBytes
        protocols[0].tx_packet_size = fragmentBytes
        writeBuffer = .allocate(capacity: rewind_lws_pre() + fragmentBytes)
        tick = .allocate(capacity: 1)
        tick.initialize(to: lws_sorted_usec_list_t())
    }

    deinit {
        protocols.deinitialize(count: 2)
        protocols.deallocate()
        free(protocolName)
        writeBuffer.deallocate()
        tick.deinitialize(count: 1)
        tick.deallocate()
    }
}
