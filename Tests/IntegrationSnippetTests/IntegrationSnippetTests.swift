import Foundation
import Testing

/// Every Swift snippet of docs/INTEGRATIONS.md is compiled: each is the whole of a source file under
/// `samples/integrations/` (after the file's leading `//` comment lines), which the package builds against stand-ins
/// of the frameworks it imports. These tests keep the page and the files equal, so neither can drift.
@Suite("docs/INTEGRATIONS.md snippets are the compiled files")
struct IntegrationSnippetTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The page's Swift snippets, in order, and the file each one is (nil: not a Swift source file, with why).
    static let files: [(firstLine: String, file: String?)] = [
        ("import RewindInspector", "samples/integrations/recorder/main.swift"),
        ("import ComposableArchitecture", "samples/integrations/tca/RecordingReducer.swift"),
        ("import ReSwift", "samples/integrations/reswift/main.swift"),
        ("import SwiftRex", "samples/integrations/swiftrex/main.swift"),
        ("import Observation", "samples/integrations/recorder/CounterModel.swift"),
        (".package(url: \"<this repository's URL>\", branch: \"main\"),", nil),  // a fragment of a Package.swift
        ("import Rewind", "samples/integrations/recorder/ReleaseBuilds.swift"),
        ("import Foundation", "samples/integrations/recorder/BugReports.swift"),
    ]

    /// The text of each ```swift block of the page, without its fences.
    static func snippets() throws -> [String] {
        let page = try String(contentsOf: root.appendingPathComponent("docs/INTEGRATIONS.md"), encoding: .utf8)
        var snippets: [String] = []
        var current: [Substring]?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```swift" { current = [] }
            } else if line == "```" {
                snippets.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return snippets
    }

    /// A file's text after its leading `//` comment lines.
    static func body(of file: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.drop { $0.hasPrefix("//") }.joined(separator: "\n")
    }

    @Test("the page has exactly the snippets listed here, in this order")
    func everySnippetIsListed() throws {
        let snippets = try Self.snippets()
        #expect(snippets.map { String($0.prefix { $0 != "\n" }) } == Self.files.map(\.firstLine),
                "a snippet was added, removed or moved: list its compiled file in IntegrationSnippetTests.files")
    }

    @Test("each Swift snippet of the page is, character for character, the file that compiles it")
    func snippetsEqualTheCompiledFiles() throws {
        let snippets = try Self.snippets()
        for (snippet, listed) in zip(snippets, Self.files) {
            guard let file = listed.file else { continue }
            let body = try Self.body(of: file)
            let why = "docs/INTEGRATIONS.md's snippet starting '\(listed.firstLine)' differs from \(file) (below its "
                + "comment lines): make them equal"
            #expect(body == snippet, Comment(rawValue: why))
        }
    }

    @Test("every framework a compiled snippet imports is mapped to a stand-in module in Package.swift")
    func frameworkImportsAreStandIns() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for framework in ["ComposableArchitecture", "ReSwift", "SwiftRex"] {
            #expect(manifest.contains("\"\(framework)=\(framework)StandIn\""), "\(framework)")
        }
    }
}
