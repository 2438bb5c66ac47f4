import RewindWire

/// Pretty-printed JSON as styled detail lines (the Action tab): two-space indentation, keys cyan, strings green,
/// numbers magenta, `true`/`false`/`null` yellow. Containers list at most `StateTree.maxChildren` children (or
/// what `limits` says for their JSON Pointer), then a "… N more — Enter shows the next 2,000" line. Each line that opens a value or holds a scalar names it (`DetailLine.path`, a JSON Pointer
/// into the printed value) so that it can be viewed whole, paged or copied. Pure: safe from any thread.
package enum JSONLines {
    /// The lines of `value`, indented by `indent` columns; `limits` lists more children of the containers at
    /// these JSON Pointers ("" the root) than `StateTree.maxChildren`.
    package static func lines(_ value: JSONValue, indent: Int = 0, limits: [String: Int] = [:]) -> [DetailLine] {
        var output: [DetailLine] = []
        emit(value, key: nil, path: "", indent: indent, comma: false, limits: limits, into: &output)
        return output
    }

    /// The "… N more" line of the container at `path` with `count` children of which `shown` are listed.
    private static func moreLine(count: Int, shown: Int, path: String, indent: Int) -> DetailLine {
        let next = min(StateTree.maxChildren, count - shown)
        return DetailLine(indent: indent, [
            TextSpan("… \(Formatting.grouped(count - shown)) more — Enter shows the next \(Formatting.grouped(next))",
                     Theme.dim),
        ], path: path, isMore: true)
    }

    private static func emit(
        _ value: JSONValue, key: String?, path: String, indent: Int, comma: Bool, limits: [String: Int],
        into output: inout [DetailLine]
    ) {
        let limit = max(StateTree.maxChildren, limits[path] ?? StateTree.maxChildren)
        var prefix: [TextSpan] = []
        if let key {
            prefix.append(TextSpan(JSONValue.string(key).serialized(), Theme.jsonKey))
            prefix.append(TextSpan(": "))
        }
        let trailer = comma ? [TextSpan(",")] : []
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(DetailLine(indent: indent, prefix + [TextSpan("[")], path: path))
            for (offset, element) in elements.prefix(limit).enumerated() {
                emit(element, key: nil, path: path + "/\(offset)", indent: indent + 2,
                     comma: offset < elements.count - 1, limits: limits, into: &output)
            }
            if elements.count > limit {
                output.append(moreLine(count: elements.count, shown: limit, path: path, indent: indent + 2))
            }
            output.append(DetailLine(indent: indent, [TextSpan("]")] + trailer))
        case .object(let object) where !object.isEmpty:
            output.append(DetailLine(indent: indent, prefix + [TextSpan("{")], path: path))
            for (offset, member) in object.prefix(limit).enumerated() {
                emit(member.value, key: member.key, path: path + "/" + StateTree.escape(member.key), indent: indent + 2,
                     comma: offset < object.count - 1, limits: limits, into: &output)
            }
            if object.count > limit {
                output.append(moreLine(count: object.count, shown: limit, path: path, indent: indent + 2))
            }
            output.append(DetailLine(indent: indent, [TextSpan("}")] + trailer))
        default:
            output.append(DetailLine(indent: indent, prefix + [TextSpan(value.serialized(), JSONPreview.style(of: value))] + trailer,
                                     path: path))
        }
    }
}
