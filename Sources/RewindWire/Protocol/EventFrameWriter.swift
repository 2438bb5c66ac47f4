/// Writes the frames that carry action events — `action` and `batch` — straight into bytes, without building the
/// message's JSON tree first: the inspector sends one per action, and the tree (an object per event, per action,
/// per patch operation, each with its key array) cost more than writing the text.
///
/// The bytes are exactly those of serializing ``AppMessage/json`` (the same members in the same order, the same
/// number forms), which `EventFrameWriterTests` checks over generated events.
///
/// Threading: a value used by one thread.
struct EventFrameWriter {
    private var writer: JSONWriter

    /// A writer with room for about `capacity` bytes.
    init(capacity: Int) {
        writer = JSONWriter(capacity: capacity)
    }

    /// The frame of one `action` message.
    static func action(_ event: ActionEvent) -> [UInt8] {
        var frame = EventFrameWriter(capacity: 256)
        frame.writer.writeRaw(#"{"type":"action","#)
        frame.writeMembers(of: event)
        frame.writer.writeRaw("}")
        return frame.writer.bytes
    }

    /// The frame of one `batch` message.
    static func batch(_ events: [ActionEvent]) -> [UInt8] {
        var frame = EventFrameWriter(capacity: 64 + 192 * events.count)
        frame.writer.writeRaw(#"{"type":"batch","events":["#)
        for (i, event) in events.enumerated() {
            frame.writer.writeRaw(i == 0 ? "{" : ",{")
            frame.writeMembers(of: event)
            frame.writer.writeRaw("}")
        }
        frame.writer.writeRaw("]}")
        return frame.writer.bytes
    }

    /// The members of an event object, without its braces (``ActionEvent``'s order: seq, time, action, patch,
    /// reducerMicros, source).
    private mutating func writeMembers(of event: ActionEvent) {
        writer.writeRaw(#""seq":"#)
        writer.writeInt(Int64(clamping: event.seq))
        writer.writeRaw(#","time":"#)
        writer.writeDouble(event.time)
        writer.writeRaw(#","action":"#)
        writeAction(event.action)
        writer.writeRaw(#","patch":"#)
        writePatch(event.patch)
        if let micros = event.reducerMicros {
            writer.writeRaw(#","reducerMicros":"#)
            writer.writeDouble(micros)
        }
        switch event.source {
        case .location(let text):
            writer.writeRaw(#","source":"#)
            writer.writeString(text)
        case .reference(let number):
            writer.writeRaw(#","source":"#)
            writer.writeInt(Int64(number))
        case nil:
            break
        }
    }

    private mutating func writeAction(_ action: ActionPayload) {
        if action.labelIsImplied {
            writer.writeRaw(#"{"payload":"#)
        } else {
            writer.writeRaw(#"{"type":"#)
            writer.writeString(action.type)
            writer.writeRaw(#","payload":"#)
        }
        writer.write(action.payload)
        writer.writeRaw("}")
    }

    private mutating func writePatch(_ patch: JSONPatch) {
        if let source = patch.sourceJSON {
            writer.write(source)
            return
        }
        writer.writeRaw("[")
        for (i, operation) in patch.operations.enumerated() {
            if i > 0 { writer.writeRaw(",") }
            writeOperation(operation)
        }
        writer.writeRaw("]")
    }

    /// One operation, in ``JSONPatchOperation/json``'s order.
    private mutating func writeOperation(_ operation: JSONPatchOperation) {
        switch operation {
        case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
            writeOpName(operation)
            writer.writeRaw(#","path":"#)
            writePointer(path)
            writer.writeRaw(#","value":"#)
            writer.write(value)
        case .remove(let path):
            writeOpName(operation)
            writer.writeRaw(#","path":"#)
            writePointer(path)
        case .move(let from, let path), .copy(let from, let path):
            writeOpName(operation)
            writer.writeRaw(#","from":"#)
            writePointer(from)
            writer.writeRaw(#","path":"#)
            writePointer(path)
        }
        writer.writeRaw("}")
    }

    private mutating func writeOpName(_ operation: JSONPatchOperation) {
        switch operation {
        case .add: writer.writeRaw(#"{"op":"add""#)
        case .remove: writer.writeRaw(#"{"op":"remove""#)
        case .replace: writer.writeRaw(#"{"op":"replace""#)
        case .move: writer.writeRaw(#"{"op":"move""#)
        case .copy: writer.writeRaw(#"{"op":"copy""#)
        case .test: writer.writeRaw(#"{"op":"test""#)
        }
    }

    /// A pointer as a JSON string: its tokens, each after a `/`, escaped as RFC 6901 says, then as JSON text.
    private mutating func writePointer(_ pointer: JSONPointer) {
        writer.writeRaw("\"")
        for token in pointer.tokens {
            writer.writeRaw("/")
            writer.writeStringContents(JSONPointer.escape(token))
        }
        writer.writeRaw("\"")
    }
}
