import Foundation

/// Writes the ingest benchmark's protocol messages straight into bytes: `hello`, and `batch` frames of small
/// action events (`tick`, each with a one-operation `replace` patch of `/counter`). Hand-written so that producing
/// a frame costs a fraction of what the daemon spends on it.
///
/// Threading: a plain value; use it from one thread.
struct IngestFrameWriter {
    /// The app's name in `hello`.
    let app: String

    /// The `hello` message: state `{"counter":0,"name":"ingest"}`.
    func hello() -> [UInt8] {
        Array(("{\"type\":\"hello\",\"protocol\":1,\"app\":{\"name\":\"\(app)\",\"instance\":\"bench:\(getpid())\"},"
            + "\"state\":{\"counter\":0,\"name\":\"ingest\"},\"capabilities\":[]}").utf8)
    }

    /// A `batch` of `count` events numbered from `firstSeq`, each setting `/counter` to its own `seq`.
    func batch(firstSeq: Int, count: Int, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        let time = Array(String(format: "%.3f", Date().timeIntervalSince1970).utf8)
        append("{\"type\":\"batch\",\"events\":[", to: &bytes)
        for seq in firstSeq..<(firstSeq + count) {
            if seq != firstSeq { bytes.append(UInt8(ascii: ",")) }
            append("{\"seq\":", to: &bytes)
            appendInteger(seq, to: &bytes)
            append(",\"time\":", to: &bytes)
            bytes.append(contentsOf: time)
            append(",\"action\":{\"type\":\"tick\",\"payload\":{\"tick\":{\"n\":", to: &bytes)
            appendInteger(seq, to: &bytes)
            append("}}},\"patch\":[{\"op\":\"replace\",\"path\":\"/counter\",\"value\":", to: &bytes)
            appendInteger(seq, to: &bytes)
            append("}]}", to: &bytes)
        }
        append("]}", to: &bytes)
    }

    @inline(__always)
    private func append(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    private func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                                         0, 0, 0, 0, 0)
        var remaining = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            } while remaining > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }
}
