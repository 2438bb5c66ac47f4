import Foundation

/// Renders any value as deterministic text for failure messages: multi-line (one field per line, so that a line
/// diff pinpoints the change) or inline (for naming an action in a sentence).
///
/// ```
/// AppState(
///   count: 1
///   todos: [
///     [0]: Todo(id: 1, title: "Milk")        ← inline mode
///   ]
/// )
/// ```
///
/// Threading: stateless; callable from any thread.
enum ValueDump {
    /// How deep structures are expanded; deeper ones (e.g. a cycle of class references) are elided as `…`.
    static let maximumDepth = 32

    /// The value as lines, structures expanded one field per line.
    static func lines(of value: Any) -> [String] {
        render(value, multiline: true)
    }

    /// The value on one line, e.g. `.loaded([1, 2])` or `Todo(id: 1, title: "Milk")`.
    static func inline(_ value: Any) -> String {
        render(value, multiline: false).joined(separator: " ")
    }

    private static func inline(_ value: Any, depth: Int) -> String {
        render(value, multiline: false, depth: depth).joined(separator: " ")
    }

    private static func render(_ value: Any, multiline: Bool, depth: Int = 0) -> [String] {
        if let leaf = leafDescription(of: value) {
            return [leaf]
        }
        guard depth < maximumDepth else { return ["…"] }
        let depth = depth + 1
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return ["nil"] }
            return render(wrapped, multiline: multiline, depth: depth)
        case .enum:
            return renderEnum(value, mirror: mirror, multiline: multiline, depth: depth)
        case .collection:
            let items = mirror.children.enumerated().map { index, child in
                (label: multiline ? "[\(index)]" : nil, value: child.value)
            }
            return container(open: "[", close: "]", items: items, multiline: multiline, depth: depth)
        case .set:
            let items = mirror.children
                .map { (label: String?.none, value: $0.value, text: inline($0.value, depth: depth)) }
                .sorted { $0.text < $1.text }
                .map { (label: $0.label, value: $0.value) }
            return container(open: "Set([", close: "])", items: items, multiline: multiline, depth: depth)
        case .dictionary:
            let pairs = mirror.children.compactMap { child -> (key: Any, value: Any)? in
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { return nil }
                return (key: pair[0].value, value: pair[1].value)
            }
            let items = pairs
                .map { (label: String?.some(inline($0.key, depth: depth)), value: $0.value) }
                .sorted { ($0.label ?? "") < ($1.label ?? "") }
            return container(open: "[", close: "]", items: items, multiline: multiline, depth: depth,
                             emptyText: "[:]")
        case .tuple:
            let items = mirror.children.map { (label: tupleLabel($0.label), value: $0.value) }
            return container(open: "(", close: ")", items: items, multiline: false, depth: depth)
        default:
            let children = Array(mirror.children)
            if children.isEmpty, let described = value as? CustomStringConvertible,
               mirror.displayStyle == nil {
                return [described.description]
            }
            let items = children.map { (label: $0.label, value: $0.value) }
            return container(open: "\(typeName(of: value))(", close: ")", items: items, multiline: multiline,
                             depth: depth)
        }
    }

    private static func renderEnum(_ value: Any, mirror: Mirror, multiline: Bool, depth: Int) -> [String] {
        guard let child = mirror.children.first, let caseName = child.label else {
            return [".\(value)"]
        }
        let payload = Mirror(reflecting: child.value)
        if payload.displayStyle == .tuple {
            let items = payload.children.map { (label: tupleLabel($0.label), value: $0.value) }
            return container(open: ".\(caseName)(", close: ")", items: items, multiline: false, depth: depth)
        }
        let inner = render(child.value, multiline: multiline, depth: depth)
        if inner.count == 1 {
            return [".\(caseName)(\(inner[0]))"]
        }
        return [".\(caseName)("] + inner.map { "  " + $0 } + [")"]
    }

    private static func container(
        open: String, close: String, items: [(label: String?, value: Any)], multiline: Bool, depth: Int,
        emptyText: String? = nil
    ) -> [String] {
        if items.isEmpty {
            return [emptyText ?? open + close]
        }
        if !multiline {
            let parts = items.map { item in
                let text = inline(item.value, depth: depth)
                return item.label.map { "\($0): \(text)" } ?? text
            }
            return [open + parts.joined(separator: ", ") + close]
        }
        var lines = [open]
        for item in items {
            var rendered = render(item.value, multiline: true, depth: depth)
            if let label = item.label {
                rendered[0] = "\(label): \(rendered[0])"
            }
            lines += rendered.map { "  " + $0 }
        }
        lines.append(close)
        return lines
    }

    private static func leafDescription(of value: Any) -> String? {
        switch value {
        case let string as String: return string.debugDescription
        case let character as Character: return String(character).debugDescription
        case let substring as Substring: return String(substring).debugDescription
        case is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32,
             is UInt64, is Double, is Float, is Decimal, is UUID, is URL, is Date:
            return "\(value)"
        case let type as Any.Type: return "\(type).self"
        default: return nil
        }
    }

    private static func tupleLabel(_ label: String?) -> String? {
        guard let label, !(label.hasPrefix(".") && label.dropFirst().allSatisfy(\.isNumber)) else { return nil }
        return label
    }

    private static func typeName(of value: Any) -> String {
        String(describing: type(of: value))
    }
}
