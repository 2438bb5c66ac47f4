import MCP
import RewindWire

/// One tool of the server: what `tools/list` shows (name, description, JSON Schema of its arguments) and the
/// function that answers `tools/call`.
///
/// Threading: immutable; `run` may be called from any thread (it blocks while it reads).
package struct ToolDefinition: Sendable {
    /// One argument: its name, JSON Schema and whether it is required.
    package struct Argument: Sendable {
        /// The argument's name.
        package let name: String
        /// Its JSON Schema (`type`, `description`, bounds).
        package let schema: Value
        /// Whether a call must give it.
        package let required: Bool

        /// A string argument.
        package static func string(_ name: String, _ description: String, required: Bool = false) -> Argument {
            Argument(name: name, schema: .object(["type": "string", "description": .string(description)]),
                     required: required)
        }

        /// A whole-number argument, at least `minimum` (and at most `maximum` when given).
        package static func integer(_ name: String, _ description: String, required: Bool = false,
                                    minimum: Int64 = 0, maximum: Int64? = nil) -> Argument {
            var schema: [String: Value] = ["type": "integer", "description": .string(description),
                                           "minimum": .int(Int(minimum))]
            if let maximum { schema["maximum"] = .int(Int(maximum)) }
            return Argument(name: name, schema: .object(schema), required: required)
        }

        /// A boolean argument.
        package static func boolean(_ name: String, _ description: String) -> Argument {
            Argument(name: name, schema: .object(["type": "boolean", "description": .string(description)]),
                     required: false)
        }

        /// An array-of-strings argument.
        package static func strings(_ name: String, _ description: String, required: Bool = false) -> Argument {
            Argument(name: name, schema: .object(["type": "array", "items": .object(["type": "string"]),
                                                  "minItems": 1, "description": .string(description)]),
                     required: required)
        }

        /// An argument of any JSON type.
        package static func anyJSON(_ name: String, _ description: String, required: Bool = false) -> Argument {
            Argument(name: name, schema: .object(["description": .string(description)]), required: required)
        }

        /// `maxBytes`, which every tool takes (``OutputBudget``).
        package static let maxBytes = integer(
            "maxBytes", "The most bytes of JSON text the answer may hold (default \(OutputBudget.defaultBytes)); "
                + "longer lists are paged, larger values outlined.",
            minimum: OutputBudget.allowed.lowerBound, maximum: OutputBudget.allowed.upperBound)
    }

    /// The tool's name.
    package let name: String
    /// What it answers, for the agent choosing a tool.
    package let description: String
    /// Its arguments (`maxBytes` included).
    package let arguments: [Argument]
    /// Whether it changes a live app (jump, dispatch, skip, replay): only listed with `--allow-control`.
    package let changesApp: Bool
    /// Answers a call: a JSON answer, or `ToolFailure` (a tool error), or `MCPError` (a protocol error).
    package let run: @Sendable (ToolArguments) throws -> JSONValue

    /// A tool named `name`.
    package init(name: String, description: String, arguments: [Argument], changesApp: Bool = false,
                 run: @escaping @Sendable (ToolArguments) throws -> JSONValue) {
        self.name = name
        self.description = description
        self.arguments = arguments + [.maxBytes]
        self.changesApp = changesApp
        self.run = run
    }

    /// The names of its arguments.
    package var argumentNames: Set<String> { Set(arguments.map(\.name)) }

    /// The tool as `tools/list` shows it: an object schema of its arguments, no others allowed.
    package var tool: Tool {
        var properties: [String: Value] = [:]
        for argument in arguments { properties[argument.name] = argument.schema }
        let required = arguments.filter(\.required).map { Value.string($0.name) }
        return Tool(
            name: name, description: description,
            inputSchema: .object(["type": "object", "properties": .object(properties), "required": .array(required),
                                  "additionalProperties": false]),
            annotations: .init(readOnlyHint: !changesApp, destructiveHint: changesApp ? true : nil))
    }
}
