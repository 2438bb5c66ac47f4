import RewindWire

/// The full state as a collapsible tree (the State tab).
///
/// ```
/// ▾ todos [2]
///   ▸ 0 {"id":1,"title":"eggs","done":true}
///   ▾ 1 {3}
///       id: 2
///       title: "milk"
///   count: 4
/// ```
/// Containers down to depth 2 (the root's children and grandchildren) start expanded, deeper ones collapsed;
/// a path in `toggled` flips its node. A collapsed container shows a one-line preview. Values the event
/// changed (paths in `changed`, and everything under them) are bold yellow and marked `•`.
/// Pure: safe from any thread.
package enum StateTree {
    /// Containers at this depth or shallower start expanded (depth 1 = the root's children).
    package static let expandedDepth = 2

    /// At most this many children of one container are listed at first; a dim line says how many more there are
    /// (so that an array of a million elements costs a few thousand lines, not a million), and Enter on it lists
    /// this many more (`limits`).
    package static let maxChildren = 2_000

    /// Whether the node at `path` and `depth` is expanded.
    package static func isExpanded(path: String, depth: Int, toggled: Set<String>) -> Bool {
        (depth <= expandedDepth) != toggled.contains(path)
    }

    /// The lines of `state`.
    /// - Parameters:
    ///   - toggled: JSON Pointers of nodes whose expansion differs from the default.
    ///   - changed: JSON Pointers the event's patch wrote.
    ///   - limits: how many children to list of the containers at these JSON Pointers ("" the root), instead of
    ///     `maxChildren`: the user paged further into them.
    package static func lines(
        _ state: JSONValue, toggled: Set<String>, changed: Set<String> = [], limits: [String: Int] = [:]
    ) -> [DetailLine] {
        var output: [DetailLine] = []
        var ancestors: Set<String> = []
        for path in changed {
            var end = path.endIndex
            while let slash = path[..<end].lastIndex(of: "/") {
                ancestors.insert(String(path[..<slash]))
                end = slash
            }
        }
        let context = Context(toggled: toggled, changed: changed, ancestors: ancestors, limits: limits)
        let rootLimit = context.limit("")
        switch state {
        case .object(let object):
            if object.isEmpty { output.append(DetailLine([TextSpan("{}", Theme.dim)])) }
            for member in object.prefix(rootLimit) {
                emit(member.value, name: member.key, path: "/" + escape(member.key), depth: 1,
                     context: context, underChanged: changed.contains(""), into: &output)
            }
            appendMore(object.count, shown: rootLimit, path: "", indent: 0, into: &output)
        case .array(let elements):
            if elements.isEmpty { output.append(DetailLine([TextSpan("[]", Theme.dim)])) }
            for (offset, element) in elements.prefix(rootLimit).enumerated() {
                emit(element, name: String(offset), path: "/\(offset)", depth: 1,
                     context: context, underChanged: changed.contains(""), into: &output)
            }
            appendMore(elements.count, shown: rootLimit, path: "", indent: 0, into: &output)
        default:
            output.append(DetailLine([TextSpan(state.serialized(), JSONPreview.style(of: state))], path: ""))
        }
        return output
    }

    /// A JSON Pointer token with `~` and `/` escaped (RFC 6901).
    package static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private struct Context {
        let toggled: Set<String>
        let changed: Set<String>
        let ancestors: Set<String>
        let limits: [String: Int]

        func limit(_ path: String) -> Int { max(maxChildren, limits[path] ?? maxChildren) }
    }

    private static func emit(
        _ value: JSONValue, name: String, path: String, depth: Int, context: Context, underChanged: Bool,
        into output: inout [DetailLine]
    ) {
        let isChanged = underChanged || context.changed.contains(path)
        let indent = (depth - 1) * 2
        let nameStyle = isChanged ? Theme.warning : Theme.jsonKey
        let mark: TextSpan?
        if isChanged {
            mark = TextSpan(" •", Theme.warning)
        } else if context.ancestors.contains(path) {
            mark = TextSpan(" •", Theme.changed)
        } else {
            mark = nil
        }
        switch value {
        case .object, .array:
            let expanded = isExpanded(path: path, depth: depth, toggled: context.toggled)
            var spans = [TextSpan(expanded ? "▾ " : "▸ "), TextSpan(name, nameStyle), TextSpan(" ")]
            if expanded || isEmptyContainer(value) {
                spans.append(TextSpan(JSONPreview.sizeBadge(of: value), Theme.dim))
            } else {
                spans.append(TextSpan(JSONPreview.text(value, limit: 120), Theme.dim))
            }
            if let mark { spans.append(mark) }
            output.append(DetailLine(indent: indent, spans, path: path, isContainer: true, isExpanded: expanded))
            guard expanded else { return }
            let limit = context.limit(path)
            if case .object(let object) = value {
                for member in object.prefix(limit) {
                    emit(member.value, name: member.key, path: path + "/" + escape(member.key), depth: depth + 1,
                         context: context, underChanged: isChanged, into: &output)
                }
                appendMore(object.count, shown: limit, path: path, indent: indent + 2, into: &output)
            } else if case .array(let elements) = value {
                for (offset, element) in elements.prefix(limit).enumerated() {
                    emit(element, name: String(offset), path: path + "/\(offset)", depth: depth + 1,
                         context: context, underChanged: isChanged, into: &output)
                }
                appendMore(elements.count, shown: limit, path: path, indent: indent + 2, into: &output)
            }
        default:
            var spans = [TextSpan("  "), TextSpan(name, nameStyle), TextSpan(": ")]
            spans.append(TextSpan(JSONPreview.text(value, limit: 400), isChanged ? Theme.warning : JSONPreview.style(of: value)))
            if let mark { spans.append(mark) }
            output.append(DetailLine(indent: indent, spans, path: path))
        }
    }

    /// `… 8,000 more — Enter shows the next 2,000` under a container of `count` children of which `shown` are
    /// listed; the line names the container (`path`) and is marked `isMore`.
    private static func appendMore(_ count: Int, shown: Int, path: String, indent: Int, into output: inout [DetailLine]) {
        guard count > shown else { return }
        let next = min(maxChildren, count - shown)
        output.append(DetailLine(indent: indent, [
            TextSpan("  … \(Formatting.grouped(count - shown)) more — Enter shows the next \(Formatting.grouped(next))",
                     Theme.dim),
        ], path: path, isMore: true))
    }

    private static func isEmptyContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object): return object.isEmpty
        case .array(let array): return array.isEmpty
        default: return false
        }
    }
}
