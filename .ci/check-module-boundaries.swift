// Fails (exit 1) if a module reaches one it must not (docs/ARCHITECTURE.md, "Modules"): the session-file module and
// the timeline never depend on the daemon or the WebSocket module, directly or through another target. Reads
// `swift package dump-package` on standard input:
//
//     swift package dump-package | swift .ci/check-module-boundaries.swift
import Foundation

/// Each module, with the modules it must not reach.
let rules: [String: Set<String>] = [
    "RewindSessionFile": ["RewindDaemon", "RewindWebSocket", "CLibWebSockets", "RewindTUI"],
    "RewindTUI": ["RewindDaemon", "RewindWebSocket", "CLibWebSockets"],
    "Rewind": ["RewindWire", "RewindInspector", "RewindDaemon", "RewindSessionFile", "RewindWebSocket"],
]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("check-module-boundaries: \(message)\n".utf8))
    exit(1)
}

let input = FileHandle.standardInput.readDataToEndOfFile()
guard let package = (try? JSONSerialization.jsonObject(with: input)) as? [String: Any],
      let targets = package["targets"] as? [[String: Any]] else {
    fail("standard input is not the JSON of `swift package dump-package`")
}
let byName = Dictionary(targets.compactMap { t in (t["name"] as? String).map { ($0, t) } }, uniquingKeysWith: { a, _ in a })

/// The targets `target` depends on, on any platform.
func dependencies(of target: [String: Any]) -> [String] {
    (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
        guard let (kind, value) = dependency.first, kind == "byName" || kind == "target",
              let parts = value as? [Any], let name = parts.first as? String else { return nil }
        return name
    }
}

for (module, forbidden) in rules.sorted(by: { $0.key < $1.key }) {
    guard byName[module] != nil else { fail("no target \(module)") }
    var path: [String: String] = [module: module]
    var pending = [module]
    while let name = pending.popLast() {
        guard let target = byName[name] else { continue }
        for dependency in dependencies(of: target) where path[dependency] == nil {
            path[dependency] = path[name]! + " → " + dependency
            if forbidden.contains(dependency) { fail("\(module) reaches \(dependency): \(path[dependency]!)") }
            pending.append(dependency)
        }
    }
    print("check-module-boundaries: \(module) reaches none of \(forbidden.sorted().joined(separator: ", "))")
}
