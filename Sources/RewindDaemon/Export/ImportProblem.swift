import RewindWire

/// Why a piece of an import file is not what its format says, in words; the importer adds the file and line.
/// Threading: a plain value.
struct ImportProblem: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}

/// Typed access to the members of an object read from an import file, with problems that name the member.
extension JSONObject {
    func requiredString(_ key: String, in place: String) throws(ImportProblem) -> String {
        guard let value = self[key] else { throw ImportProblem("\(place) has no \"\(key)\"") }
        guard let text = value.stringValue else {
            throw ImportProblem("\(place): \"\(key)\" must be a string, not \(value.kindName)")
        }
        return text
    }

    func optionalString(_ key: String, in place: String) throws(ImportProblem) -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw ImportProblem("\(place): \"\(key)\" must be a string, not \(value.kindName)")
        }
        return text
    }

    func requiredNumber(_ key: String, in place: String) throws(ImportProblem) -> Double {
        guard let value = self[key] else { throw ImportProblem("\(place) has no \"\(key)\"") }
        guard let number = value.doubleValue, number.isFinite else {
            throw ImportProblem("\(place): \"\(key)\" must be a number, not \(value.kindName)")
        }
        return number
    }

    func optionalNumber(_ key: String, in place: String) throws(ImportProblem) -> Double? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let number = value.doubleValue, number.isFinite else {
            throw ImportProblem("\(place): \"\(key)\" must be a number, not \(value.kindName)")
        }
        return number
    }

    func optionalInteger(_ key: String, in place: String) throws(ImportProblem) -> Int64? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let number = value.int64Value else {
            throw ImportProblem("\(place): \"\(key)\" must be an integer, not \(value.serialized().prefix(40))")
        }
        return number
    }

    func optionalPatch(_ key: String, in place: String) throws(ImportProblem) -> JSONPatch? {
        guard let value = self[key], !value.isNull else { return nil }
        do {
            return try JSONPatch(json: value)
        } catch {
            throw ImportProblem("\(place): \"\(key)\" is not a JSON Patch: \(error)")
        }
    }
}
