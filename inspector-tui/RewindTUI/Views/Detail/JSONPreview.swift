import RewindWire

/// Compact one-line JSON text that stops early: a large subtree costs only what is shown.
/// Pure functions: safe from any thread.
package enum JSONPreview {
    /// `value` serialized compactly, cut after about `limit` characters with `…`.
    package static func text(_ value: JSONValue, limit: Int = 200) -> String {
        var output = ""
        var budget = limit
        append(value, to: &output, budget: &budget)
        if budget < 0 {
            output = String(output.prefix(limit)) + "…"
        }
        return output
    }

    /// The style a scalar is shown in (strings green, numbers magenta, literals yellow); containers plain.
    package static func style(of value: JSONValue) -> CellStyle {
        switch value {
        case .string: return Theme.jsonString
        case .int, .double: return Theme.jsonNumber
        case .bool, .null: return Theme.jsonLiteral
        case .array, .object: return Theme.plain
        }
    }

    /// `{3}` for an object with three members, `[2]` for an array of two.
    package static func sizeBadge(of value: JSONValue) -> String {
        switch value {
        case .object(let object): return "{\(object.count)}"
        case .array(let array): return "[\(array.count)]"
        default: return ""
        }
    }

    private static func append(_ value: JSONValue, to output: inout String, budget: inout Int) {
        guard budget >= 0 else { return }
        switch value {
        case .array(let elements):
            emit("[", to: &output, budget: &budget)
            for (offset, element) in elements.enumerated() {
                guard budget >= 0 else { return }
                if offset > 0 { emit(",", to: &output, budget: &budget) }
                append(element, to: &output, budget: &budget)
            }
            emit("]", to: &output, budget: &budget)
        case .object(let object):
            emit("{", to: &output, budget: &budget)
            for (offset, member) in object.enumerated() {
                guard budget >= 0 else { return }
                if offset > 0 { emit(",", to: &output, budget: &budget) }
                emit(JSONValue.string(member.key).serialized(), to: &output, budget: &budget)
                emit(":", to: &output, budget: &budget)
                append(member.value, to: &output, budget: &budget)
            }
            emit("}", to: &output, budget: &budget)
        case .string(let string) where string.utf8.count > budget:
            // Serialize only a prefix of a long string.
            emit(JSONValue.string(String(string.prefix(max(0, budget)))).serialized(), to: &output, budget: &budget)
            budget = -1
        default:
            emit(value.serialized(), to: &output, budget: &budget)
        }
    }

    private static func emit(_ text: String, to output: inout String, budget: inout Int) {
        output += text
        budget -= text.utf8.count
    }
}
