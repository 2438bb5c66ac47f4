// Fails (exit 1) if `RewindInspector` would link libwebsockets on an Apple platform, if the package stops
// declaring the Apple platforms an app builds for, or if a module reaches one it must not (docs/ARCHITECTURE.md,
// "Modules": the session-file module and the timeline never reach the daemon or the WebSocket module). Reads
// `swift package dump-package` on standard input:
//
//     swift package dump-package | swift .ci/check-dependencies.swift
//
// For each Apple platform it walks RewindInspector's target dependencies, following only those whose condition
// admits that platform, and fails if it reaches `RewindWebSocket` or `CLibWebSockets`; it also fails if the
// `REWIND_LIBWEBSOCKETS` define (which compiles LibWebSocketsTransport) is set for an Apple platform. It also
// fails when the products are not the ones users link and run (Rewind, RewindTesting, RewindInspector, RewindWire,
// rewind).
import Foundation

let applePlatforms = ["macos", "maccatalyst", "ios", "tvos", "watchos", "visionos"]
let forbidden: Set<String> = ["RewindWebSocket", "CLibWebSockets"]
let requiredPlatforms = ["macos": "13.0", "ios": "16.0", "tvos": "16.0", "watchos": "9.0"]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("check-dependencies: \(message)\n".utf8))
    exit(1)
}

let input = FileHandle.standardInput.readDataToEndOfFile()
guard let package = (try? JSONSerialization.jsonObject(with: input)) as? [String: Any],
      let targets = package["targets"] as? [[String: Any]] else {
    fail("standard input is not the JSON of `swift package dump-package`")
}
let byName = Dictionary(targets.compactMap { t in (t["name"] as? String).map { ($0, t) } }, uniquingKeysWith: { a, _ in a })

/// The platforms a condition admits (nil: every platform).
func platforms(of condition: Any?) -> [String]? {
    guard let condition = condition as? [String: Any], let names = condition["platformNames"] as? [String] else {
        return nil
    }
    return names
}

/// The targets `target` depends on when built for `platform` (nil: on any platform).
func dependencies(of target: [String: Any], on platform: String?) -> [String] {
    (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
        guard let (kind, value) = dependency.first, kind == "byName" || kind == "target",
              let parts = value as? [Any], let name = parts.first as? String else { return nil }
        let admitted = platforms(of: parts.count > 1 ? parts[1] : nil)
        guard let platform else { return name }
        return admitted == nil || admitted!.contains(platform) ? name : nil
    }
}

guard let inspector = byName["RewindInspector"] else { fail("no target RewindInspector") }
for platform in applePlatforms {
    var path: [String: String] = ["RewindInspector": "RewindInspector"]
    var pending = ["RewindInspector"]
    while let name = pending.popLast() {
        guard let target = byName[name] else { continue }
        for next in dependencies(of: target, on: platform) where path[next] == nil {
            path[next] = path[name]! + " -> " + next
            if forbidden.contains(next) { fail("on \(platform), \(path[next]!): libwebsockets would be linked") }
            pending.append(next)
        }
    }
}
for setting in inspector["settings"] as? [[String: Any]] ?? [] {
    guard let kind = setting["kind"] as? [String: Any], let define = kind["define"] as? [String: Any],
          define["_0"] as? String == "REWIND_LIBWEBSOCKETS" else { continue }
    let admitted = platforms(of: setting["condition"]) ?? applePlatforms
    if let apple = admitted.first(where: applePlatforms.contains) {
        fail("REWIND_LIBWEBSOCKETS is defined for \(apple): LibWebSocketsTransport would be compiled there")
    }
}
let declared = Dictionary((package["platforms"] as? [[String: Any]] ?? []).compactMap { p -> (String, String)? in
    guard let name = p["platformName"] as? String, let version = p["version"] as? String else { return nil }
    return (name, version)
}, uniquingKeysWith: { a, _ in a })
for (platform, version) in requiredPlatforms.sorted(by: { $0.key < $1.key }) where declared[platform] != version {
    fail("the package declares \(platform) \(declared[platform] ?? "nothing"), not \(version)")
}
print("check-dependencies: RewindInspector links no libwebsockets on \(applePlatforms.joined(separator: ", "))")

/// Each module, with the modules it must not reach on any platform.
let boundaries: [String: Set<String>] = [
    "RewindSessionFile": ["RewindDaemon", "RewindWebSocket", "CLibWebSockets", "RewindTUI"],
    "RewindTUI": ["RewindDaemon", "RewindWebSocket", "CLibWebSockets"],
    "Rewind": ["RewindWire", "RewindInspector", "RewindDaemon", "RewindSessionFile", "RewindWebSocket"],
]
for (module, forbidden) in boundaries.sorted(by: { $0.key < $1.key }) {
    guard byName[module] != nil else { fail("no target \(module)") }
    var path: [String: String] = [module: module]
    var pending = [module]
    while let name = pending.popLast() {
        guard let target = byName[name] else { continue }
        for next in dependencies(of: target, on: nil) where path[next] == nil {
            path[next] = path[name]! + " -> " + next
            if forbidden.contains(next) { fail("\(module) reaches \(next): \(path[next]!)") }
            pending.append(next)
        }
    }
    print("check-dependencies: \(module) reaches none of \(forbidden.sorted().joined(separator: ", "))")
}

/// The products are what users link and run (issue 29): the store, its test store, the inspector, the wire types an
/// outside client may need, and the `rewind` executable; nothing else is promised as API.
let expectedProducts: Set<String> = ["Rewind", "RewindTesting", "RewindInspector", "RewindWire", "rewind"]
let products = Set((package["products"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
guard products == expectedProducts else {
    fail("the products are \(products.sorted().joined(separator: ", ")), not "
        + expectedProducts.sorted().joined(separator: ", "))
}
print("check-dependencies: the products are \(expectedProducts.sorted().joined(separator: ", "))")
