import Foundation

/// Where the package's executables (`rewind`, `counter`, `stress`, …) were built: beside the test bundle.
///
/// Threading: immutable; any thread.
package enum Executables {
    /// The directory holding the built products of this build.
    package static let directory: URL = {
        var candidate = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<4 {
            candidate.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("rewind").path) {
                return candidate
            }
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }()

    /// The package's root folder (where Package.swift is).
    /// (This file is `Tests/RewindTestSupport/Executables.swift`.)
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The path of the executable named `name`.
    package static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
