import RewindWire

/// Why a piece of an import file is not what its format says, in words; the importer adds the file and line.
/// Threading: a plain value.
package struct ImportProblem: Error {
    package let reason: String

    package init(_ reason: String) {
        self.reason = reason
    }

    /// `time`, when it is inside `WireRanges.time`; otherwise a problem naming `key` and the range.
    package static func checkTime(_ time: Double, _ key: String, in place: String) throws(ImportProblem) -> Double {
        guard WireRanges.isValidTime(time) else {
            throw ImportProblem("\(place): \"\(key)\" must be a time in seconds since 1970 from 0 to "
                                + "\(WireRanges.text(WireRanges.time.upperBound)) (9999-12-31), "
                                + "not \(WireRanges.text(time))")
        }
        return time
    }
}

/// Typed access to the members of an object read from an import file, with problems that name the member.
extension JSONObject {
    package func requiredString(_ key: String, in place: String) throws(ImportProblem) -> String {
        guard let value = self[key] else { throw ImportProblem("\(place) has no \"\(key)\"") }
        guard let text = value.stringValue else {
            throw ImportProblem("\(place): \"\(key)\" must be a string, not \(value.kindName)")
        }
        return text
    }

    package func optionalString(_ key: String, in place: String) throws(ImportProblem) -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw ImportProblem("\(place): \"\(key)\" must be a string, not \(value.kindName)")
        }
        return text
    }

    package func requiredNumber(_ key: String, in place: String) throws(ImportProblem) -> Double {
        guard let value = self[key] else { throw ImportProblem("\(place) has no \"\(key)\"") }
        guard let number = value.doubleValue, number.isFinite else {
            throw ImportProblem("\(place): \"\(key)\" must be a number, not \(value.kindName)")
        }
        return number
    }

    package func optionalNumber(_ key: String, in place: String) throws(ImportProblem) -> Double? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let number = value.doubleValue, number.isFinite else {
            throw ImportProblem("\(place): \"\(key)\" must be a number, not \(value.kindName)")
        }
        return number
    }

    /// A time in seconds since 1970 inside `WireRanges.time` (no later value can be shown or stored safely).
    package func requiredTime(_ key: String, in place: String) throws(ImportProblem) -> Double {
        try ImportProblem.checkTime(try requiredNumber(key, in: place), key, in: place)
    }

    /// An optional time in seconds since 1970 inside `WireRanges.time`.
    package func optionalTime(_ key: String, in place: String) throws(ImportProblem) -> Double? {
        guard let time = try optionalNumber(key, in: place) else { return nil }
        return try ImportProblem.checkTime(time, key, in: place)
    }

    /// An optional duration in microseconds inside `WireRanges.micros`.
    package func optionalMicros(_ key: String, in place: String) throws(ImportProblem) -> Double? {
        guard let micros = try optionalNumber(key, in: place) else { return nil }
        guard WireRanges.micros.contains(micros) else {
            throw ImportProblem("\(place): \"\(key)\" must be a duration in microseconds from 0 to "
                                + "\(WireRanges.text(WireRanges.micros.upperBound)), not \(WireRanges.text(micros))")
        }
        return micros
    }

    package func optionalInteger(_ key: String, in place: String) throws(ImportProblem) -> Int64? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let number = value.int64Value else {
            throw ImportProblem("\(place): \"\(key)\" must be an integer, not \(value.serialized().prefix(40))")
        }
        return number
    }

    package func optionalPatch(_ key: String, in place: String) throws(ImportProblem) -> JSONPatch? {
        guard let value = self[key], !value.isNull else { return nil }
        do {
            return try JSONPatch(json: value)
        } catch {
            throw ImportProblem("\(place): \"\(key)\" is not a JSON Patch: \(error)")
        }
    }
}
