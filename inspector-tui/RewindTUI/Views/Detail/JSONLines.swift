import RewindWire

/// Pretty-printed JSON as styled detail lines (the Action tab): two-space indentation, keys cyan, strings green,
/// numbers magenta, `true`/`false`/`null` yellow. Containers list at most `StateTree.maxChildren` children,
/// then how many more. Each line that opens a value or holds a scalar names it (`DetailLine.path`, a JSON Pointer
/// into the printed value) so that it can be viewed whole, paged or copied. Pure: safe from any thread.
public enum JSONLines {
    /// The lines of `value`, indented by `indent` columns.
    public static func lines(_ value: JSONValue, indent: Int = 0) -> [DetailLine] {
        var output: [DetailLine] = []
        emit(value, key: nil, path: "", indent: indent, comma: false, into: &output)
        return output
    }

    private static func emit(
        _ value: JSONValue, key: String?, path: String, indent: Int, comma: Bool, into output: inout [DetailLine]
    ) {
        var prefix: [TextSpan] = []
        if let key {
            prefix.append(TextSpan(JSONValue.string(key).serialized(), Theme.jsonKey))
            prefix.append(TextSpan(": "))
        }
        let trailer = comma ? [TextSpan(",")] : []
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(DetailLine(indent: indent, prefix + [TextSpan("[")], path: path))
            for (offset, element) in elements.prefix(StateTree.maxChildren).enumerated() {
                emit(element, key: nil, path: path + "/\(offset)", indent: indent + 2,
                     comma: offset < elements.count - 1, into: &output)
            }
            if elements.count > StateTree.maxChildren {
                output.append(DetailLine(indent: indent + 2, [
                    TextSpan("… \(Formatting.grouped(elements.count - StateTree.maxChildren)) more", Theme.dim),
                ]))
            }
            output.append(DetailLine(indent: indent, [TextSpan("]")] + trailer))
        case .object(let object) where !object.isEmpty:
            output.append(DetailLine(indent: indent, prefix + [TextSpan("{")], path: path))
            for (offset, member) in object.prefix(StateTree.maxChildren).enumerated() {
                emit(member.value, key: member.key, path: path + "/" + StateTree.escape(member.key), indent: indent + 2,
                     comma: offset < object.count - 1, into: &output)
            }
            if object.count > StateTree.maxChildren {
                output.append(DetailLine(indent: indent + 2, [
                    TextSpan("… \(Formatting.grouped(object.count - StateTree.maxChildren)) more", Theme.dim),
                ]))
            }
            output.append(DetailLine(indent: indent, [TextSpan("}")] + trailer))
        default:
            output.append(DetailLine(indent: indent, prefix + [TextSpan(value.serialized(), JSONPreview.style(of: value))] + trailer,
                                     path: path))
        }
    }
}
