import RewindWire

/// Pretty-printed JSON as styled detail lines (the Action tab): two-space indentation, keys cyan, strings green,
/// numbers magenta, `true`/`false`/`null` yellow. Pure: safe from any thread.
public enum JSONLines {
    /// The lines of `value`, indented by `indent` columns.
    public static func lines(_ value: JSONValue, indent: Int = 0) -> [DetailLine] {
        var output: [DetailLine] = []
        emit(value, key: nil, indent: indent, comma: false, into: &output)
        return output
    }

    private static func emit(_ value: JSONValue, key: String?, indent: Int, comma: Bool, into output: inout [DetailLine]) {
        var prefix: [TextSpan] = []
        if let key {
            prefix.append(TextSpan(JSONValue.string(key).serialized(), Theme.jsonKey))
            prefix.append(TextSpan(": "))
        }
        let trailer = comma ? [TextSpan(",")] : []
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(DetailLine(indent: indent, prefix + [TextSpan("[")]))
            for (offset, element) in elements.enumerated() {
                emit(element, key: nil, indent: indent + 2, comma: offset < elements.count - 1, into: &output)
            }
            output.append(DetailLine(indent: indent, [TextSpan("]")] + trailer))
        case .object(let object) where !object.isEmpty:
            output.append(DetailLine(indent: indent, prefix + [TextSpan("{")]))
            for (offset, member) in object.enumerated() {
                emit(member.value, key: member.key, indent: indent + 2, comma: offset < object.count - 1, into: &output)
            }
            output.append(DetailLine(indent: indent, [TextSpan("}")] + trailer))
        default:
            output.append(DetailLine(indent: indent, prefix + [TextSpan(value.serialized(), JSONPreview.style(of: value))] + trailer))
        }
    }
}
