/// Identifies a screen: its ``name`` plus the ``traits`` that tell apart screens of the same kind (e.g. a chat
/// screen's chat id). Two screens with equal keys are the same screen.
///
/// Keys are what ``NavigationState`` stores, so they are `Codable`: traits are kept as their
/// `String(reflecting:)` text, sorted (so `1` and `"1"` stay distinct, and order does not matter).
///
/// Threading: an immutable value; `Sendable`.
public struct ScreenKey: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The screen's name; by default its type name.
    public let name: String
    /// The screen's traits, as sorted text.
    public let traits: [String]

    /// A key from a name and traits of any hashable types.
    public init(name: String, traits: Set<AnyHashable> = []) {
        self.name = name
        self.traits = Set(traits.map { String(reflecting: $0.base) }).sorted()
    }

    /// A key from a name and already-textual traits (as decoded, or as shown by ``description``).
    public init(name: String, traitTexts: [String]) {
        self.name = name
        self.traits = Set(traitTexts).sorted()
    }

    /// `Name` or `Name[trait, trait]`.
    public var description: String {
        traits.isEmpty ? name : "\(name)[\(traits.joined(separator: ", "))]"
    }

    private enum CodingKeys: String, CodingKey { case name, traits }

    /// Decodes `{"name": String, "traits": [String]?}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(String.self, forKey: .name),
                  traitTexts: try container.decodeIfPresent([String].self, forKey: .traits) ?? [])
    }

    /// Encodes `{"name": String, "traits": [String]}`, omitting empty traits.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if !traits.isEmpty {
            try container.encode(traits, forKey: .traits)
        }
    }
}
