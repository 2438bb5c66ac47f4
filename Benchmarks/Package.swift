// swift-tools-version:6.0
//
// Rewind's benchmark suite: `make bench` at the repository root builds this package in release mode and runs
// `rewind-bench`, which rewrites BENCHMARKS.md. A separate package, so that the main build and test runs stay light;
// it depends on the main package by path.

import PackageDescription

let package = Package(
    name: "RewindBenchmarks",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "rewind-bench", targets: ["RewindBench"]),
    ],
    dependencies: [
        .package(name: "Rewind", path: ".."),
    ],
    targets: [
        // Measuring and reporting: statistics, the sampling loop, the Markdown report. No Rewind code.
        .target(name: "BenchKit"),
        // The benchmarks themselves, one file per area.
        .executableTarget(
            name: "RewindBench",
            dependencies: [
                "BenchKit",
                .product(name: "Rewind", package: "Rewind"),
                .product(name: "RewindWire", package: "Rewind"),
                .product(name: "RewindInspector", package: "Rewind"),
                .product(name: "RewindDaemon", package: "Rewind"),
                .product(name: "RewindTUI", package: "Rewind"),
            ]
        ),
        .testTarget(name: "BenchKitTests", dependencies: ["BenchKit"]),
    ]
)
