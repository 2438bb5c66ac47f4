import Foundation
import MCP
import RewindWire

/// Converts between the MCP SDK's `Value` (what clients send as tool arguments) and Rewind's `JSONValue` (what
/// session files hold and the daemon speaks).
///
/// Threading: stateless; any thread.
package enum ValueConversion {
    /// The JSON value `value` stands for. Binary data (`Value.data`, which JSON-RPC carries as a data URL
    /// string) becomes that string.
    package static func json(from value: Value) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let int): return .int(Int64(int))
        case .double(let double): return .double(double)
        case .string(let text): return .string(text)
        case .data(let mimeType, let data):
            return .string("data:\(mimeType ?? "application/octet-stream");base64,\(data.base64EncodedString())")
        case .array(let elements): return .array(elements.map(json(from:)))
        case .object(let members):
            return .object(JSONObject(members.keys.sorted().map { ($0, json(from: members[$0] ?? .null)) }))
        }
    }
}
