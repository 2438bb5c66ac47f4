import Foundation
import Testing
import RewindWire

/// The public json-patch-tests suite, read from `../shared/conformance/json-patch-tests/` beside the package.
enum ConformanceSuite {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // RewindWireTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // package root
        .appendingPathComponent("../shared/conformance/json-patch-tests", isDirectory: true)
        .standardizedFileURL

    static var isPresent: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("tests.json").path)
            && FileManager.default.fileExists(atPath: directory.appendingPathComponent("spec_tests.json").path)
    }

    static func records(_ file: String) throws -> [JSONValue] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        let parsed = try JSONValue(parsing: [UInt8](data))
        return try #require(parsed.arrayValue)
    }
}

@Suite("JSON Patch conformance (json-patch-tests)")
struct JSONPatchConformanceTests {
    @Test("every enabled record passes; records with an error are rejected",
          .enabled(if: ConformanceSuite.isPresent,
                   "json-patch-tests not found at \(ConformanceSuite.directory.path): conformance suite skipped"),
          arguments: ["tests.json", "spec_tests.json"])
    func suite(file: String) throws {
        let records = try ConformanceSuite.records(file)
        var checked = 0
        for (n, record) in records.enumerated() {
            if record["disabled"] == .bool(true) { continue }
            let label = "\(file) #\(n): \(record["comment"]?.stringValue ?? record["error"]?.stringValue ?? "")"
            let doc = try #require(record["doc"], "\(label)")
            let patchJSON = try #require(record["patch"], "\(label)")
            checked += 1
            if record["error"] != nil {
                var rejected = false
                do {
                    let patch = try JSONPatch(json: patchJSON)
                    _ = try patch.apply(to: doc)
                } catch {
                    rejected = true
                }
                #expect(rejected, "\(label) should be rejected")
            } else {
                do {
                    let patch = try JSONPatch(json: patchJSON)
                    let result = try patch.apply(to: doc)
                    if let expected = record["expected"] {
                        #expect(result == expected, "\(label): got \(result)")
                    }
                    // The JSON form of the parsed patch reads back identically.
                    #expect(try JSONPatch(json: patch.json) == patch, "\(label)")
                } catch {
                    Issue.record("\(label): unexpected error \(error)")
                }
            }
        }
        #expect(checked > 10)
    }
}
