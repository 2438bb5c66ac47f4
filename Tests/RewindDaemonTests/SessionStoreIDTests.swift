import Foundation
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

@Suite("Session ids")
struct SessionStoreIDTests {
    @Test("a generated id has the date, the app's name made safe, and a random suffix")
    func generatedFormat() throws {
        let date = Date(timeIntervalSince1970: 1_795_361_412) // 2026-11-22 15:30:12 UTC
        let id = SessionID.generate(appName: "My Todo App!", date: date)
        let parts = id.rawValue.split(separator: "-")
        #expect(id.rawValue.hasPrefix("20261122-153012-my-todo-app-"))
        #expect(parts.last?.count == 6)
        #expect(try SessionID(validating: id.rawValue) == id)
        #expect(SessionID.generate(appName: "../../etc", date: date).rawValue.hasPrefix("20261122-153012-etc-"))
        #expect(SessionID.generate(appName: "日本", date: date).rawValue.hasPrefix("20261122-153012-app-"))
        #expect(SessionID.generate(appName: "x", date: date) != SessionID.generate(appName: "x", date: date))
    }

    @Test("ids typed by users are refused when they could be paths or are not plain names",
          arguments: ["", "a/b", "../x", "a..b", "..", ".hidden", "-rf", "x y", "a\\b", "é", String(repeating: "a", count: 129)])
    func badIDsAreRefused(_ text: String) {
        #expect(throws: SessionStoreError.self) { try SessionID(validating: text) }
        do {
            _ = try SessionID(validating: text)
        } catch {
            #expect(error.description.contains("invalid session id"))
        }
    }

    @Test("plain ids are accepted", arguments: ["20261122-153012-todo-4f9a2c", "a", "A.b_c-9"])
    func goodIDsAreAccepted(_ text: String) throws {
        #expect(try SessionID(validating: text).rawValue == text)
    }

    @Test("a decoded id is validated")
    func decodingValidates() throws {
        let good = try JSONDecoder().decode([SessionID].self, from: Data(#"["abc"]"#.utf8))
        #expect(good.first?.rawValue == "abc")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([SessionID].self, from: Data(#"["../x"]"#.utf8)) }
    }
}
