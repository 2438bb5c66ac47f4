// swift-tools-version:6.0
//
// Rewind: a unidirectional data-flow library for Swift, and a time-travel inspector for it.
// The module map and the rules about who may import whom are in docs/ARCHITECTURE.md.

import Foundation
import PackageDescription

/// `REWIND_PORTABLE=1` declares only what an app on an Apple platform builds — `Rewind`, `RewindWire`,
/// `RewindInspector` without libwebsockets — plus the tests of that configuration, so that Linux CI compiles and
/// links the Apple dependency graph (`make portable-check`, in its own `--scratch-path .build-portable`).
let portable = ProcessInfo.processInfo.environment["REWIND_PORTABLE"] == "1"
/// The targets (and, by the same names, products) of the portable configuration.
let portableTargets: Set<String> = ["Rewind", "RewindWire", "RewindInspector", "InspectorPortableTests"]

let package = Package(
    name: "Rewind",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    // What users link and run: the library, its test support, the middleware apps link and the wire types (for
    // clients in other programs), and the `rewind` executable. Everything else — the daemon, session files, the
    // timeline, the command line, the samples, the benchmarks — is the package's own (`package` access); its
    // executables still build and run by name (`swift run counter`).
    products: [
        .library(name: "Rewind", targets: ["Rewind"]),
        .library(name: "RewindTesting", targets: ["RewindTesting"]),
        .library(name: "RewindWire", targets: ["RewindWire"]),
        .library(name: "RewindInspector", targets: ["RewindInspector"]),
        .executable(name: "rewind", targets: ["rewind"]),
    ].filter { !portable || portableTargets.contains($0.name) },
    dependencies: portable ? [] : [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        // MARK: The data-flow library (Foundation only)
        .target(name: "Rewind"),
        .target(name: "RewindTesting", dependencies: ["Rewind"]),

        // MARK: The wire format shared by the middleware and the daemon (Foundation only)
        .target(name: "RewindWire"),

        // MARK: System libraries, each used through one Swift wrapper
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"]), .brew(["libwebsockets"])]
        ),
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),

        // MARK: WebSocket server and client on libwebsockets (the only module importing CLibWebSockets)
        .target(name: "RewindWebSocket", dependencies: ["CLibWebSockets"]),

        // MARK: The instrumentation middleware apps link in. libwebsockets is its transport on Linux only; on
        // Apple platforms (and in the portable configuration) the transport is Foundation's URLSession.
        .target(
            name: "RewindInspector",
            dependencies: portable
                ? ["Rewind", "RewindWire"]
                : ["Rewind", "RewindWire", .target(name: "RewindWebSocket", condition: .when(platforms: [.linux]))],
            swiftSettings: portable ? [] : [.define("REWIND_LIBWEBSOCKETS", .when(platforms: [.linux]))]
        ),

        // MARK: Session files: writing, reading, indexes, search, history, export and import (no server, no live
        // sessions; the only module importing CSQLite)
        .target(name: "RewindSessionFile", dependencies: ["RewindWire", "CSQLite"]),

        // MARK: The daemon: server, live sessions, ingest, time travel
        .target(name: "RewindDaemon", dependencies: ["RewindWire", "RewindWebSocket", "RewindSessionFile"]),

        // MARK: The Model Context Protocol server over live and saved sessions (`rewind mcp`)
        .target(
            name: "RewindMCP",
            dependencies: ["RewindSessionFile", "RewindTUI", "RewindWire", .product(name: "MCP", package: "swift-sdk")]
        ),

        // MARK: The `rewind` executable and its terminal timeline (which reads session files, never the daemon: the
        // glue that gives it the in-process daemon lives with the command line)
        .target(
            name: "RewindTUI",
            dependencies: ["RewindSessionFile", "RewindWire", "CNCurses"],
            path: "inspector-tui/RewindTUI"
        ),
        // The command line as a library (one file per command), so that tests run its commands in process; the
        // `rewind` executable is its one-line main.
        .target(
            name: "RewindCommandLine",
            dependencies: [
                "RewindTUI", "RewindDaemon", "RewindSessionFile", "RewindWire", "RewindWebSocket", "RewindMCP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "inspector-tui/RewindCommandLine"
        ),
        .executableTarget(name: "rewind", dependencies: ["RewindCommandLine"], path: "inspector-tui/rewind"),

        // MARK: Samples (each one small enough to read in a few minutes)
        .target(name: "SampleSupport", dependencies: ["Rewind", "RewindInspector"], path: "samples/SampleSupport"),
        .executableTarget(name: "counter", dependencies: ["Rewind", "RewindInspector", "SampleSupport"],
                          path: "samples/counter"),
        .executableTarget(name: "todo", dependencies: ["Rewind", "RewindInspector", "SampleSupport"],
                          path: "samples/todo"),
        .executableTarget(name: "login", dependencies: ["Rewind", "RewindInspector", "SampleSupport"],
                          path: "samples/login"),
        .executableTarget(name: "stress", dependencies: ["Rewind", "RewindInspector", "SampleSupport"],
                          path: "samples/stress"),
        // Samples whose stores are not Rewind stores, recorded through `Recorder` only (docs/INTEGRATIONS.md).
        .target(name: "RecorderSampleSupport", dependencies: ["RewindInspector"],
                path: "samples/RecorderSampleSupport"),
        .executableTarget(name: "reswift-style", dependencies: ["Rewind", "RewindInspector", "RecorderSampleSupport"],
                          path: "samples/reswift-style"),
        .executableTarget(name: "tca-style", dependencies: ["RewindInspector", "RecorderSampleSupport"],
                          path: "samples/tca-style"),

        // MARK: The snippets of docs/INTEGRATIONS.md, compiled verbatim (IntegrationSnippetTests keeps them equal to
        // the page). The frameworks they import are stand-ins written from their public shape (never their code):
        // `-module-alias` maps `import ComposableArchitecture` (…) to the stand-in module. Never run; never products.
        .target(name: "ComposableArchitectureStandIn", path: "samples/integrations/StandIns/ComposableArchitecture"),
        .target(name: "ReSwiftStandIn", path: "samples/integrations/StandIns/ReSwift"),
        .target(name: "SwiftRexStandIn", path: "samples/integrations/StandIns/SwiftRex"),
        .executableTarget(name: "integration-recorder", dependencies: ["Rewind", "RewindInspector"],
                          path: "samples/integrations/recorder"),
        .target(name: "IntegrationTCA", dependencies: ["RewindInspector", "ComposableArchitectureStandIn"],
                path: "samples/integrations/tca",
                swiftSettings: [.unsafeFlags(["-module-alias", "ComposableArchitecture=ComposableArchitectureStandIn"])]),
        .executableTarget(name: "integration-reswift", dependencies: ["Rewind", "RewindInspector", "ReSwiftStandIn"],
                          path: "samples/integrations/reswift",
                          swiftSettings: [.unsafeFlags(["-module-alias", "ReSwift=ReSwiftStandIn"])]),
        .executableTarget(name: "integration-swiftrex", dependencies: ["RewindInspector", "SwiftRexStandIn"],
                          path: "samples/integrations/swiftrex",
                          swiftSettings: [.unsafeFlags(["-module-alias", "SwiftRex=SwiftRexStandIn"])]),

        // MARK: Benchmarks (`make bench`: `swift run -c release rewind-bench`, which rewrites BENCHMARKS.md)
        // Measuring and reporting — statistics, the sampling loop, the Markdown report — with no Rewind code.
        .target(name: "BenchKit", path: "Benchmarks/Sources/BenchKit"),
        // The benchmarks themselves, one file per area.
        .executableTarget(
            name: "rewind-bench",
            dependencies: ["BenchKit", "Rewind", "RewindWire", "RewindInspector", "RewindDaemon", "RewindSessionFile",
                           "RewindTUI"],
            path: "Benchmarks/Sources/RewindBench"
        ),

        // MARK: Tests
        // What several test targets use: a daemon under test (in process, or `rewind serve` as a child process), child
        // processes, raw WebSocket peers, free ports, the tmux driver, the Python MCP client (mcp_client.py).
        .target(
            name: "RewindTestSupport",
            dependencies: ["RewindWire", "RewindWebSocket", "RewindDaemon", "RewindSessionFile", "RewindInspector",
                           "RewindCommandLine"],
            path: "Tests/RewindTestSupport",
            exclude: ["mcp_client.py"]
        ),
        .testTarget(name: "RewindTests", dependencies: ["Rewind", "RewindTesting"]),
        .testTarget(name: "RewindTestingTests", dependencies: ["Rewind", "RewindTesting"]),
        .testTarget(name: "RewindWireTests", dependencies: ["RewindWire"]),
        .testTarget(name: "RewindInspectorTests", dependencies: ["RewindInspector", "Rewind", "RewindWire"]),
        .testTarget(name: "InspectorPortableTests", dependencies: ["RewindInspector", "Rewind", "RewindWire"]),
        .testTarget(name: "RewindDaemonTests",
                    dependencies: ["RewindDaemon", "RewindSessionFile", "RewindWire", "RewindTestSupport"]),
        .testTarget(name: "DeliverySimulationTests",
                    dependencies: ["RewindInspector", "RewindDaemon", "RewindSessionFile", "RewindWire",
                                   "RewindWebSocket"]),
        .testTarget(name: "RewindTUITests",
                    dependencies: ["RewindTUI", "RewindDaemon", "RewindSessionFile", "RewindWire", "RewindTestSupport"]),
        .testTarget(
            name: "SamplesTests",
            dependencies: ["counter", "todo", "login", "SampleSupport", "Rewind", "RewindTesting", "RewindWire"]
        ),
        .testTarget(name: "RewindCommandLineTests", dependencies: ["RewindTestSupport", "RewindSessionFile", "RewindWire"]),
        .testTarget(name: "SessionReadersTests",
                    dependencies: ["RewindDaemon", "RewindSessionFile", "RewindTUI", "RewindMCP", "RewindTestSupport",
                                   "RewindWire", "RewindWebSocket"]),
        .testTarget(name: "IntegrationSnippetTests"),
        .testTarget(name: "BenchKitTests", dependencies: ["BenchKit"], path: "Benchmarks/Tests/BenchKitTests"),
        .testTarget(name: "FuzzTests", dependencies: ["RewindWire"], exclude: ["Corpus"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["RewindTestSupport", "RewindWire", "RewindWebSocket", "RewindDaemon", "RewindSessionFile",
                           "Rewind", "RewindInspector", "RewindTUI", "RewindMCP"]
        ),
        // The timeline (`rewind`, `rewind open`) in a real terminal: tmux.
        .testTarget(name: "TimelineTerminalTests",
                    dependencies: ["RewindTestSupport", "RewindDaemon", "RewindSessionFile", "RewindWire"]),
        // The WebSocket server and client, and the inspector's transport over them.
        .testTarget(name: "WebSocketTransportTests",
                    dependencies: ["RewindTestSupport", "RewindWebSocket", "RewindInspector"]),
    ].filter { !portable || portableTargets.contains($0.name) }
)
