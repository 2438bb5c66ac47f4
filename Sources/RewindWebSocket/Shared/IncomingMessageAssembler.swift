import CLibWebSockets
/// Reassembles one connection's incoming WebSocket message from the chunks libwebsockets delivers
/// (a message may span several frames, and a frame several RECEIVE callbacks), refusing to buffer more
/// than a limit.
///
/// Threading: a value owned by one connection and used only on its service thread.
struct IncomingMessageAssembler {
    /// What appending a chunk produced.
    enum Outcome {
        /// More chunks are needed.
        case partial
        /// A whole message.
        case complete([UInt8])
        /// The message would exceed the limit: the connection should close with 1009. Nothing is kept.
        case tooLarge
    }

    /// The largest message accepted, in bytes (raised when a connection is admitted, see
    /// ``WebSocketServer/admit(_:)``).
    var limit: Int
    private var buffer: [UInt8] = []
    private var inMessage = false

    /// True while part of a message has been received and the rest is awaited.
    var isInMessage: Bool { inMessage }

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds the next chunk.
    /// - Parameters:
    ///   - isFinal: the chunk ends the message (`lws_is_final_fragment`).
    ///   - remainingInFrame: bytes of the current frame still to come (`lws_remaining_packet_payload`),
    ///     used to refuse an oversized frame before buffering it and to reserve capacity once.
    mutating func append(_ chunk: UnsafeRawBufferPointer, isFinal: Bool, remainingInFrame: Int) -> Outcome {
        let known = buffer.count + chunk.count + (isFinal ? 0 : max(0, remainingInFrame))
        guard known <= limit else {
            reset()
            return .tooLarge
        }
        if !inMessage && isFinal {
            // The common case: the whole message in one chunk, copied once.
            return .complete(Array(chunk.assumingMemoryBound(to: UInt8.self)))
        }
        if !inMessage {
            inMessage = true
            buffer.reserveCapacity(known)
        } else if buffer.capacity < known {
            buffer.reserveCapacity(max(known, min(limit, buffer.capacity * 2)))
        }
        buffer.append(contentsOf: chunk.assumingMemoryBound(to: UInt8.self))
        guard isFinal else { return .partial }
        let message = buffer
        buffer = []
        inMessage = false
        return .complete(message)
    }

    /// Drops any partial message.
    mutating func reset() {
        buffer = []
        inMessage = false
    }
}

extension IncomingMessageAssembler {
    /// Appends what libwebsockets handed to a `RECEIVE` callback (`input`, `length`), reading whether it ends the
    /// message and how much of the frame is still to come from `wsi`. Service thread only.
    mutating func appendReceived(_ input: UnsafeMutableRawPointer?, length: Int, from wsi: OpaquePointer) -> Outcome {
        append(UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length),
               isFinal: lws_is_final_fragment(wsi) != 0,
               remainingInFrame: Int(lws_remaining_packet_payload(wsi)))
    }
}
