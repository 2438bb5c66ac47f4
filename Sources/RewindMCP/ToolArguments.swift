import MCP
import RewindWire

/// The arguments of one tool call, read by name and checked against what the tool declares: a missing required
/// argument, a value of the wrong type or out of range, and an argument the tool does not have are protocol errors
/// (`invalidParams`) naming the argument and what it must be — never a crash.
///
/// Threading: an immutable value; `Sendable`.
package struct ToolArguments: Sendable {
    /// The tool's name, for messages.
    let tool: String
    /// The arguments as the client sent them.
    let values: [String: Value]

    /// The arguments of a call to `tool`; fails with `invalidParams` naming any argument not in `known`.
    package init(tool: String, values: [String: Value]?, known: Set<String>) throws(MCPError) {
        self.tool = tool
        self.values = values ?? [:]
        let unknown = self.values.keys.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw .invalidParams("\(tool) has no argument \(unknown.map { "'\($0)'" }.joined(separator: ", ")) "
                + "(its arguments: \(known.sorted().joined(separator: ", ")))")
        }
    }

    /// A required string argument.
    package func string(_ name: String) throws(MCPError) -> String {
        guard let value = try optionalString(name) else { throw missing(name, "a string") }
        return value
    }

    /// An optional string argument (nil when absent or null).
    package func optionalString(_ name: String) throws(MCPError) -> String? {
        guard let value = present(name) else { return nil }
        guard case .string(let text) = value else { throw wrongType(name, "a string", value) }
        return text
    }

    /// A required whole-number argument within `range`.
    package func integer(_ name: String, in range: ClosedRange<Int64> = 0...Int64.max) throws(MCPError) -> Int64 {
        guard let value = try optionalInteger(name, in: range) else { throw missing(name, "a whole number") }
        return value
    }

    /// An optional whole-number argument within `range` (nil when absent or null). A number with a fraction is
    /// refused; `3.0` is taken as 3.
    package func optionalInteger(_ name: String, in range: ClosedRange<Int64> = 0...Int64.max) throws(MCPError)
        -> Int64? {
        guard let value = present(name) else { return nil }
        let number: Int64?
        switch value {
        case .int(let int): number = Int64(int)
        case .double(let double): number = double.rounded() == double ? Int64(exactly: double) : nil
        default: number = nil
        }
        guard let number else { throw wrongType(name, "a whole number", value) }
        guard range.contains(number) else {
            throw .invalidParams("\(tool): '\(name)' must be "
                + (range.upperBound == .max ? "at least \(range.lowerBound)"
                    : "between \(range.lowerBound) and \(range.upperBound)") + ", not \(number)")
        }
        return number
    }

    /// An optional boolean argument, `defaultValue` when absent.
    package func bool(_ name: String, default defaultValue: Bool) throws(MCPError) -> Bool {
        guard let value = present(name) else { return defaultValue }
        guard case .bool(let flag) = value else { throw wrongType(name, "true or false", value) }
        return flag
    }

    /// A required array of strings, not empty.
    package func strings(_ name: String) throws(MCPError) -> [String] {
        guard let value = present(name) else { throw missing(name, "an array of strings") }
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw wrongType(name, "a non-empty array of strings", value)
        }
        var result: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw wrongType(name, "an array of strings", value) }
            result.append(text)
        }
        return result
    }

    /// A required argument of any JSON type, as a `JSONValue`.
    package func json(_ name: String) throws(MCPError) -> JSONValue {
        guard let value = values[name] else { throw missing(name, "a JSON value") }
        return ValueConversion.json(from: value)
    }

    /// A required JSON Pointer argument ('' is the whole state).
    package func pointer(_ name: String) throws(MCPError) -> JSONPointer {
        guard let pointer = try optionalPointer(name) else { throw missing(name, "a JSON Pointer such as /todos/0") }
        return pointer
    }

    /// An optional JSON Pointer argument.
    package func optionalPointer(_ name: String) throws(MCPError) -> JSONPointer? {
        guard let text = try optionalString(name) else { return nil }
        do {
            return try JSONPointer(text)
        } catch {
            throw .invalidParams("\(tool): '\(name)' is not a JSON Pointer: \(error) (a pointer is '' for the whole "
                + "state or starts with '/', e.g. /todos/0/title)")
        }
    }

    /// The value of `name`, nil when absent or null.
    private func present(_ name: String) -> Value? {
        guard let value = values[name], !value.isNull else { return nil }
        return value
    }

    private func missing(_ name: String, _ what: String) -> MCPError {
        .invalidParams("\(tool) needs '\(name)': \(what)")
    }

    private func wrongType(_ name: String, _ what: String, _ value: Value) -> MCPError {
        .invalidParams("\(tool): '\(name)' must be \(what), not \(ValueConversion.json(from: value).serialized().prefix(80))")
    }
}
