import Foundation
import Testing
import RewindTUI

@Suite("README's timeline keys")
struct ReadmeKeysTests {
    @Test("the README's key table lists exactly what the help overlay lists, in its order")
    func matchesTheHelp() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try #require(text.range(of: "### Timeline keys"))
        let rows = text[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("| **") }
            .prefix { $0.hasPrefix("|") }.map(String.init)
        var expected: [String] = []
        for section in KeyBindings.help {
            expected.append("| **\(section.title)** | |")
            for binding in section.bindings {
                let keys = binding.keys.components(separatedBy: "  ").map { "`\($0)`" }.joined(separator: "  ")
                expected.append("| \(keys) | \(binding.action) |")
            }
        }
        #expect(rows == expected)
    }
}
