import Foundation
import Testing

/// The official Python MCP SDK (`mcp` on PyPI) in its private virtual environment, which `make mcp-client` (run by
/// `make test` and `make sanitize`) creates in `.build-venv/mcp`; `REWIND_MCP_PYTHON` may name another Python that
/// has it. The client script itself is `mcp_client.py` beside this file.
///
/// Threading: immutable; any thread.
package enum PythonMCPClient {
    /// Whether this is CI (`CI=true`), where the client must be there.
    package static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The Python that has the `mcp` package, or nil when there is none.
    package static let python: String? = {
        let path = ProcessInfo.processInfo.environment["REWIND_MCP_PYTHON"]
            ?? Executables.packageRoot.appendingPathComponent(".build-venv/mcp/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// The client script.
    package static let script = Executables.packageRoot
        .appendingPathComponent("Tests/RewindTestSupport/mcp_client.py").path

    /// Why the suite is skipped when it is.
    package static let absence = Comment(rawValue: "skipped: no Python MCP client in .build-venv/mcp (run `make mcp-client`, "
        + "or set REWIND_MCP_PYTHON to a Python with the `mcp` package)")
}
