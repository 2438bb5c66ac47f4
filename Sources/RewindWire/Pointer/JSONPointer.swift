/// An RFC 6901 JSON Pointer: a path of reference tokens into a JSON document.
///
/// The text form is `""` for the whole document, otherwise `/token/token…` where `~` is written `~0` and `/`
/// is written `~1`. ``tokens`` are the unescaped tokens. A token addresses an object member by name, or an
/// array element by a decimal index without leading zeros (`0`, `17`); `-` names the position after the last
/// element (meaningful only to JSON Patch `add`).
///
/// Threading: a value type; safe to share.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first. Empty for the whole document.
    public var tokens: [String]

    /// A pointer made of these (unescaped) tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// Parses the text form. Throws when the text is not empty and does not start with `/`, or when a `~` is
    /// not followed by `0` or `1`.
    public init(_ string: String) throws(JSONPointerError) {
        if string.isEmpty {
            tokens = []
            return
        }
        let utf8 = Array(string.utf8)
        guard utf8[0] == UInt8(ascii: "/") else {
            throw JSONPointerError(pointer: string, offset: 0, reason: "a JSON Pointer must be empty or start with '/'")
        }
        var result: [String] = []
        var current: [UInt8] = []
        var hasTilde = false
        var i = 1
        var tokenStart = 1
        while i <= utf8.count {
            if i == utf8.count || utf8[i] == UInt8(ascii: "/") {
                if hasTilde {
                    result.append(String(decoding: current, as: UTF8.self))
                } else {
                    result.append(String(decoding: utf8[tokenStart..<i], as: UTF8.self))
                }
                current.removeAll(keepingCapacity: true)
                hasTilde = false
                i += 1
                tokenStart = i
                continue
            }
            let b = utf8[i]
            if b == UInt8(ascii: "~") {
                if !hasTilde {
                    hasTilde = true
                    current.append(contentsOf: utf8[tokenStart..<i])
                }
                guard i + 1 < utf8.count, utf8[i + 1] == UInt8(ascii: "0") || utf8[i + 1] == UInt8(ascii: "1") else {
                    throw JSONPointerError(pointer: string, offset: i, reason: "'~' must be followed by '0' or '1'")
                }
                current.append(utf8[i + 1] == UInt8(ascii: "0") ? UInt8(ascii: "~") : UInt8(ascii: "/"))
                i += 2
                continue
            }
            if hasTilde { current.append(b) }
            i += 1
        }
        tokens = result
    }

    /// The escaped text form (`/a~1b/0`).
    public var description: String {
        var out = ""
        for token in tokens {
            out.append("/")
            out.append(JSONPointer.escape(token))
        }
        return out
    }

    /// True for the pointer to the whole document.
    public var isRoot: Bool { tokens.isEmpty }

    /// The pointer to the container of what this points at; `nil` for the root.
    public var parent: JSONPointer? {
        guard !tokens.isEmpty else { return nil }
        return JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// This pointer with one more token.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// This pointer with an array index appended.
    public func appending(index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// True when `other` points at this location or inside it (every pointer is a prefix of itself).
    public func isPrefix(of other: JSONPointer) -> Bool {
        tokens.count <= other.tokens.count && other.tokens.starts(with: tokens)
    }

    /// `~` → `~0`, `/` → `~1`.
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var out = ""
        for c in token.unicodeScalars {
            switch c {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// The array index a token denotes: decimal digits, no leading zero (except `0` itself), no sign.
    /// `nil` for anything else (including `-`).
    public static func arrayIndex(_ token: String) -> Int? {
        var token = token
        return token.withUTF8 { utf8 -> Int? in
            guard !utf8.isEmpty, utf8.count <= 18 else { return nil }
            if utf8.count > 1 && utf8[0] == UInt8(ascii: "0") { return nil }
            var v = 0
            for b in utf8 {
                guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(b - UInt8(ascii: "0"))
            }
            return v
        }
    }
}

extension JSONValue {
    /// The value `pointer` designates, or `nil` when there is none (a missing member, an index out of range or
    /// not a valid index, a token applied to a scalar). Threading: pure.
    public subscript(pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let o):
                guard let next = o[token] else { return nil }
                current = next
            case .array(let a):
                guard let i = JSONPointer.arrayIndex(token), i < a.count else { return nil }
                current = a[i]
            default:
                return nil
            }
        }
        return current
    }
}
