import MCP
import RewindWire

/// The byte limit of one tool answer and the means to keep within it: lists are cut into pages (the answer says
/// where the next page starts), and a value larger than the limit is replaced by its outline (its members or
/// elements with their sizes) and a hint to ask for a part of it by JSON Pointer.
///
/// Every tool takes `maxBytes` (``defaultBytes`` by default, ``allowed`` at most); the answer states the limit it
/// kept to in `limits.maxBytes`.
///
/// Threading: a value; used by one call at a time.
package struct OutputBudget: Sendable {
    /// The limit when the caller gives none: 32 KiB of JSON text, a few thousand words for an agent.
    package static let defaultBytes: Int64 = 32_768
    /// The range `maxBytes` may take.
    package static let allowed: ClosedRange<Int64> = 1_024...1_048_576
    /// What the envelope of an answer (its counts, cursors, messages) is allowed beside the listed items.
    static let envelopeReserve = 768

    /// The limit, in bytes of compact JSON text.
    package let maxBytes: Int
    /// The bytes taken so far by the items added with ``admit(_:)``.
    private(set) var used = 0

    /// The budget `arguments` ask for (`maxBytes`), or the default.
    package init(_ arguments: ToolArguments) throws(MCPError) {
        maxBytes = Int(try arguments.optionalInteger("maxBytes", in: Self.allowed) ?? Self.defaultBytes)
    }

    /// Takes `item`'s size from what is left for items; false (nothing taken) when it does not fit.
    package mutating func admit(_ item: JSONValue) -> Bool {
        let size = item.compactSize(limit: maxBytes + 1) + 1
        guard used + size <= maxBytes - Self.envelopeReserve else { return false }
        used += size
        return true
    }

    /// `value` when it fits in `bytes` (default: what is left), else its outline: `{"omitted": true, "bytes": N,
    /// "kind", "members"/"elements": …, "hint"}`; `hint` says what to ask instead.
    package func fitted(_ value: JSONValue, within bytes: Int? = nil, hint: String) -> JSONValue {
        let limit = bytes ?? (maxBytes - Self.envelopeReserve - used)
        let size = value.compactSize(limit: limit + 1)
        guard size > limit else { return value }
        var outline = JSONObject()
        outline["omitted"] = true
        outline["bytes"] = .int(Int64(value.compactSize()))
        outline["kind"] = .string(value.kindName)
        var shown = 0
        let perEntry = 40
        switch value {
        case .object(let object):
            // The largest members first: those an agent narrows down to.
            var members = JSONObject()
            let sized = object.map { ($0.key, $0.value.compactSize()) }.sorted { $0.1 > $1.1 }
            for (key, size) in sized where shown + key.utf8.count + perEntry < maxBytes / 4 {
                members[key] = .int(Int64(size))
                shown += key.utf8.count + perEntry
            }
            outline["memberBytes"] = .object(members)
            if members.count < object.count { outline["membersNotShown"] = .int(Int64(object.count - members.count)) }
        case .array(let elements):
            outline["elements"] = .int(Int64(elements.count))
        case .string(let text):
            outline["prefix"] = .string(String(text.prefix(max(0, limit / 2))))
        default:
            break
        }
        outline["hint"] = .string(hint)
        return .object(outline)
    }

    /// The `limits` member of an answer: the byte limit kept to.
    package var limitsJSON: JSONValue {
        .object(["maxBytes": .int(Int64(maxBytes))])
    }
}
