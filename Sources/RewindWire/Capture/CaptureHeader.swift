/// The first line of a *capture file*: what an app's inspector recorded on its own, without a daemon
/// (docs/SESSION-FORMAT.md, "Capture files").
///
/// A capture file is JSON Lines: this header, then a `hello` (the state the capture starts from and the number of
/// the last action it includes), then the app → daemon messages the inspector built after it (`action`, `batch`,
/// `dropped`, `snapshot`; docs/PROTOCOL.md §3.4), exactly as they travel on a connection, and — when the file was
/// closed rather than cut short by the process's end — a `goodbye`. `rewind import` records it through the daemon's
/// own ingest, so a capture means exactly what the same messages would have meant live.
///
/// Threading: a value type; safe to share.
public struct CaptureHeader: Sendable, Hashable {
    /// Why a capture file was written.
    public enum Reason: String, Sendable, Hashable {
        /// The daemon was unreachable: part of the inspector's rolling offline capture.
        case offline
        /// The app asked for it (`Inspector.captureNow(reason:)`): the last actions it kept in memory.
        case trigger
    }

    /// The `format` value of a capture file's first line.
    public static let formatName = "rewind-capture"
    /// The version this build writes and the newest it reads.
    public static let currentVersion = 1
    /// The file name suffix of capture files (`rewind import DIR` reads the files that end with it).
    public static let fileSuffix = ".rewind-capture.jsonl"

    /// The format version of the file.
    public var version: Int
    /// The app run that wrote it (its `hello.app`).
    public var app: AppIdentity
    /// Why it was written.
    public var reason: Reason
    /// The app's words for a triggered capture (`captureNow(reason:)`); nil for offline parts.
    public var note: String?
    /// The file's number in its run's offline capture (1, 2, …: the parts of one run follow each other); nil for a
    /// triggered capture.
    public var part: Int?
    /// When the file was started, in seconds since 1970.
    public var createdAt: Double
    /// The Swift type name of the app's state, when known.
    public var stateType: String?

    /// A header.
    public init(version: Int = CaptureHeader.currentVersion, app: AppIdentity, reason: Reason, note: String? = nil,
                part: Int? = nil, createdAt: Double, stateType: String? = nil) {
        self.version = version
        self.app = app
        self.reason = reason
        self.note = note
        self.part = part
        self.createdAt = createdAt
        self.stateType = stateType
    }

    /// The header as its JSON object.
    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("format", .string(Self.formatName)),
            ("version", .int(Int64(version))),
            ("app", .object(JSONObject([("name", .string(app.name)), ("instance", .string(app.instance))]))),
            ("reason", .string(reason.rawValue)),
        ]
        if let note { pairs.append(("note", .string(note))) }
        if let part { pairs.append(("part", .int(Int64(part)))) }
        pairs.append(("createdAt", .double(createdAt)))
        if let stateType { pairs.append(("stateType", .string(stateType))) }
        return .object(JSONObject(pairs))
    }

    /// The header line's bytes, without the newline.
    public func serializedBytes() -> [UInt8] { json.serializedBytes() }

    /// Whether `line` (a file's first line) is a capture header, judged by its `format` member alone: a JSON object
    /// whose `format` is ``formatName``. Such a line may still be invalid (see ``init(parsing:)``).
    public static func isCaptureHeader(_ line: [UInt8]) -> Bool {
        guard let value = try? JSONValue(parsing: line) else { return false }
        return value["format"]?.stringValue == formatName
    }

    /// Reads a header line; throws ``CaptureHeaderError`` naming what is wrong.
    public init(parsing line: [UInt8]) throws(CaptureHeaderError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: line) } catch {
            throw CaptureHeaderError("the first line is not JSON (\(error))")
        }
        guard value.objectValue != nil else { throw CaptureHeaderError("the first line is not a JSON object") }
        guard value["format"]?.stringValue == Self.formatName else {
            throw CaptureHeaderError("the first line's \"format\" is not \"\(Self.formatName)\"")
        }
        guard let version = value["version"]?.int64Value else {
            throw CaptureHeaderError("the header has no integer \"version\"")
        }
        guard version >= 1, version <= Int64(Self.currentVersion) else {
            throw CaptureHeaderError("the capture's version \(version) is newer than this rewind reads "
                                     + "(\(Self.currentVersion)); update rewind")
        }
        guard let name = value["app"]?["name"]?.stringValue, let instance = value["app"]?["instance"]?.stringValue
        else { throw CaptureHeaderError("the header has no \"app\": {\"name\", \"instance\"}") }
        guard let reasonText = value["reason"]?.stringValue, let reason = Reason(rawValue: reasonText) else {
            throw CaptureHeaderError("the header's \"reason\" is not \"offline\" or \"trigger\"")
        }
        guard let createdAt = value["createdAt"]?.doubleValue, createdAt.isFinite, createdAt >= 0 else {
            throw CaptureHeaderError("the header has no \"createdAt\" time (seconds since 1970)")
        }
        let part = value["part"]?.int64Value.map { Int(clamping: $0) }
        if let part, part < 1 { throw CaptureHeaderError("the header's \"part\" is below 1") }
        self.init(version: Int(version), app: AppIdentity(name: name, instance: instance), reason: reason,
                  note: value["note"]?.stringValue, part: part, createdAt: createdAt,
                  stateType: value["stateType"]?.stringValue)
    }
}

/// Why a capture file's first line is not a header this build reads.
public struct CaptureHeaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a person.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
