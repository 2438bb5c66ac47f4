/// Derives the timeline label of an action: `todo/add` for `.todo(.add(title: "Milk"))`.
///
/// The label is the path of enum case names found in the action's `Encodable` encoding (synthesized `Codable`
/// encodes a case as a keyed container named after the case; positional `_0`-style keys are skipped), read by a
/// minimal encoder that stops as soon as the path ends, so no payload is encoded. An action that adopts
/// ``ActionLabelProviding`` (at any level of the path) supplies its own label instead. A `RawRepresentable`-style
/// action that encodes as a single string is labelled with that string. A non-`Encodable` action falls back to the
/// case names reported by reflection.
///
/// The label is computed only when asked, never on the dispatch path.
///
/// Threading: a pure function of the value; safe to call from any thread on a `Sendable` action.
public enum ActionLabel {
    /// The timeline label of `action`. Never empty: falls back to the action's type name.
    public static func of<A>(_ action: A) -> String {
        if let provider = action as? any ActionLabelProviding {
            return provider.actionLabel
        }
        if let encodable = action as? any Encodable {
            let encoder = ActionLabelEncoder()
            encoder.label(of: encodable)
            if !encoder.path.isEmpty {
                return encoder.path.joined(separator: "/")
            }
            if let single = encoder.singleValue {
                return single
            }
        }
        let reflected = reflectedCasePath(of: action)
        if !reflected.isEmpty {
            return reflected.joined(separator: "/")
        }
        return String(describing: A.self)
    }

    /// The case path of an enum value by reflection: used for actions that are not `Encodable`.
    private static func reflectedCasePath(of value: Any) -> [String] {
        var path: [String] = []
        var current = value
        while true {
            if !path.isEmpty, let provider = current as? any ActionLabelProviding {
                path.append(provider.actionLabel)
                return path
            }
            let mirror = Mirror(reflecting: current)
            guard mirror.displayStyle == .enum else { return path }
            guard let child = mirror.children.first, let caseName = child.label else {
                // A case without payload: its description is the case name.
                path.append(String(describing: current))
                return path
            }
            path.append(caseName)
            let payload = Mirror(reflecting: child.value)
            if payload.displayStyle == .tuple {
                // Several associated values: the path ends at this case.
                return path
            }
            current = child.value
        }
    }
}
