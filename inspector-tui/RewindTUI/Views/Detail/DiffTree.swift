import RewindWire

/// An event's JSON Patch as a tree of the paths it touched (the Diff tab).
///
/// Operations are grouped under their common path prefixes, in the order they first appear:
/// ```
/// ~ count: 3 → 4
/// ▾ todos
///     + 2: {"id":3,"title":"milk"}
///     - 0: {"id":1,"title":"eggs"}
/// ```
/// `+` added (green), `-` removed (red, with the value it had), `~` replaced (yellow, `old → new`),
/// `»` moved or copied (blue, with its source), `?` test (dim). An append (`/todos/-`) is shown under the index
/// the element got. Old values come from applying the operations one
/// by one to the state before the event, so they are right even when several operations touch one array.
/// Pure: safe from any thread.
package enum DiffTree {
    /// The lines for `patch`, applied to `before` (nil when the state before is unknown: old values are then
    /// left out).
    package static func lines(patch: JSONPatch?, before: JSONValue?) -> [DetailLine] {
        guard let patch, !patch.operations.isEmpty else {
            return [DetailLine([TextSpan("(no change to the state)", Theme.dim)])]
        }
        let root = Node(token: "")
        var working = before
        for operation in patch.operations {
            var oldValue: JSONValue?
            var sourceValue: JSONValue?
            if let document = working {
                oldValue = document[operation.path]
                if case .move(let from, _) = operation { sourceValue = document[from] }
                if case .copy(let from, _) = operation { sourceValue = document[from] }
                do {
                    working = try JSONPatch([operation]).apply(to: document)
                } catch {
                    working = nil
                }
            }
            var tokens = operation.path.tokens
            if tokens.last == "-", let document = working,
               case .array(let elements)? = document[JSONPointer(tokens: Array(tokens.dropLast()))] {
                // An append: name the index the element landed at (the array after the operation).
                tokens[tokens.count - 1] = String(elements.count - 1)
            }
            root.insert(Entry(operation: operation, oldValue: oldValue, sourceValue: sourceValue,
                              pointer: tokens.map { "/" + StateTree.escape($0) }.joined()),
                        tokens: tokens[...])
        }
        var output: [DetailLine] = []
        for entry in root.entries {
            output.append(line(for: entry, name: "(whole state)", indent: 0))
        }
        render(root, indent: 0, into: &output)
        return output
    }

    private struct Entry {
        let operation: JSONPatchOperation
        let oldValue: JSONValue?
        let sourceValue: JSONValue?
        /// Where the operation wrote (an append resolved to its index).
        let pointer: String
    }

    private final class Node {
        let token: String
        var entries: [Entry] = []
        var children: [Node] = []
        var childPositions: [String: Int] = [:]

        init(token: String) {
            self.token = token
        }

        func insert(_ entry: Entry, tokens: ArraySlice<String>) {
            guard let first = tokens.first else {
                entries.append(entry)
                return
            }
            let child: Node
            if let position = childPositions[first] {
                child = children[position]
            } else {
                child = Node(token: first)
                childPositions[first] = children.count
                children.append(child)
            }
            child.insert(entry, tokens: tokens.dropFirst())
        }
    }

    private static func render(_ node: Node, indent: Int, into output: inout [DetailLine]) {
        for child in node.children {
            for entry in child.entries {
                output.append(line(for: entry, name: child.token, indent: indent))
            }
            if !child.children.isEmpty {
                output.append(DetailLine(indent: indent, [TextSpan("▾ "), TextSpan(child.token, Theme.jsonKey)]))
                render(child, indent: indent + 2, into: &output)
            }
        }
    }

    /// The entry's line, naming its pointer and holding the value it shows whole (the new value; for a removal
    /// the old one; for a move or copy the source's), for the viewer, the pager and copying.
    private static func line(for entry: Entry, name: String, indent: Int) -> DetailLine {
        var line = drawnLine(for: entry, name: name, indent: indent)
        line.path = entry.pointer
        switch entry.operation {
        case .add(_, let value), .replace(_, let value), .test(_, let value): line.value = value
        case .remove: line.value = entry.oldValue
        case .move, .copy: line.value = entry.sourceValue
        }
        return line
    }

    private static func drawnLine(for entry: Entry, name: String, indent: Int) -> DetailLine {
        let label = TextSpan(name.isEmpty ? "\"\"" : name, Theme.jsonKey)
        switch entry.operation {
        case .add(_, let value):
            return DetailLine(indent: indent, [
                TextSpan("+ ", Theme.added.bolded), label, TextSpan(": "), TextSpan(JSONPreview.text(value), Theme.added),
            ])
        case .remove:
            var spans = [TextSpan("- ", Theme.removed.bolded), label]
            if let old = entry.oldValue {
                spans += [TextSpan(": "), TextSpan(JSONPreview.text(old), Theme.removed)]
            }
            return DetailLine(indent: indent, spans)
        case .replace(_, let value):
            var spans = [TextSpan("~ ", Theme.changed.bolded), label, TextSpan(": ")]
            if let old = entry.oldValue {
                spans += [TextSpan(JSONPreview.text(old, limit: 80), Theme.removed), TextSpan(" → ", Theme.changed.bolded)]
            }
            spans.append(TextSpan(JSONPreview.text(value), Theme.changed))
            return DetailLine(indent: indent, spans)
        case .move(let from, _), .copy(let from, _):
            let verb: String
            if case .move = entry.operation { verb = "moved from" } else { verb = "copied from" }
            var spans = [TextSpan("» ", Theme.moved.bolded), label, TextSpan(": \(verb) \(from.description)", Theme.moved)]
            if let value = entry.sourceValue {
                spans.append(TextSpan("  " + JSONPreview.text(value), Theme.dim))
            }
            return DetailLine(indent: indent, spans)
        case .test(_, let value):
            return DetailLine(indent: indent, [
                TextSpan("? ", Theme.dim), label, TextSpan(": test = " + JSONPreview.text(value), Theme.dim),
            ])
        }
    }
}
