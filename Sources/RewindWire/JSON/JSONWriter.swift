/// Writes JSON text as UTF-8 bytes: compact or indented, keys in order.
///
/// Strings: `"` and `\` are escaped, as are control characters (`\b \f \n \r \t`, others as `\u00XX`);
/// everything else, `/` and non-ASCII included, is written as is. Integers are written in decimal;
/// doubles in the shortest form that reads back to the same value (Swift's `description`, which always
/// contains a `.` or an exponent, so a double never reads back as an integer); non-finite doubles as `null`.
///
/// Threading: a value used by one thread.
struct JSONWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: Compact

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: appendLiteral("null")
        case .bool(let b): appendLiteral(b ? "true" : "false")
        case .int(let i): writeInt(i)
        case .double(let d): writeDouble(d)
        case .string(let s): writeString(s)
        case .array(let a):
            bytes.append(UInt8(ascii: "["))
            var first = true
            for element in a {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let o):
            bytes.append(UInt8(ascii: "{"))
            let keys = o.storedKeys, values = o.storedValues
            for i in keys.indices {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(keys[i])
                bytes.append(UInt8(ascii: ":"))
                write(values[i])
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    // MARK: Indented

    mutating func writePretty(_ value: JSONValue, indent: Int, level: Int) {
        switch value {
        case .array(let a) where !a.isEmpty:
            bytes.append(UInt8(ascii: "["))
            for (i, element) in a.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent: indent, level: level + 1)
                writePretty(element, indent: indent, level: level + 1)
            }
            newline(indent: indent, level: level)
            bytes.append(UInt8(ascii: "]"))
        case .object(let o) where !o.isEmpty:
            bytes.append(UInt8(ascii: "{"))
            let keys = o.storedKeys, values = o.storedValues
            for i in keys.indices {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent: indent, level: level + 1)
                writeString(keys[i])
                bytes.append(UInt8(ascii: ":"))
                bytes.append(UInt8(ascii: " "))
                writePretty(values[i], indent: indent, level: level + 1)
            }
            newline(indent: indent, level: level)
            bytes.append(UInt8(ascii: "}"))
        default:
            write(value)
        }
    }

    private mutating func newline(indent: Int, level: Int) {
        bytes.append(UInt8(ascii: "\n"))
        let n = indent * level
        if n > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: n)) }
    }

    // MARK: Scalars

    @inline(__always)
    private mutating func appendLiteral(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func writeInt(_ value: Int64) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        // Up to 20 characters: sign + 19 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var magnitude = value.magnitude
            var i = 20
            repeat {
                i -= 1
                buffer[i] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 48
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<20]))
        }
    }

    mutating func writeDouble(_ value: Double) {
        guard value.isFinite else {
            appendLiteral("null")
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        writeStringContents(string)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes what goes between a JSON string's quotes for `string` (escaped as ``writeString(_:)`` escapes it).
    mutating func writeStringContents(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                runStart = i + 1
                bytes.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
    }

    /// Writes ASCII text that needs no escaping (a member name written by this module, with its quotes and colon).
    @inline(__always)
    mutating func writeRaw(_ text: StaticString) {
        appendLiteral(text)
    }
}
