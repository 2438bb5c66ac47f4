/// The pinned watches (`w` on a node of the State tab): for each app, by its name, the JSON Pointers whose values the
/// timeline shows beside every row, in the order they were pinned. Saved in `pins.json` (`PinFile`).
/// Threading: a plain value, owned by the UI thread's model.
package struct PinBoard: Sendable, Hashable, Codable {
    /// The pointers (JSON Pointer text) pinned for each app name.
    package private(set) var apps: [String: [String]]

    /// A board with `apps`' pins (empty by default).
    package init(apps: [String: [String]] = [:]) {
        self.apps = apps.filter { !$0.value.isEmpty }
    }

    /// The pointers pinned for `app`, in the order they were pinned.
    package func pointers(for app: String) -> [String] {
        apps[app] ?? []
    }

    /// Pins `pointer` for `app`, or unpins it when it was pinned; returns whether it is pinned now.
    @discardableResult
    package mutating func toggle(_ pointer: String, for app: String) -> Bool {
        var pinned = apps[app] ?? []
        defer { apps[app] = pinned.isEmpty ? nil : pinned }
        if let position = pinned.firstIndex(of: pointer) {
            pinned.remove(at: position)
            return false
        }
        pinned.append(pointer)
        return true
    }
}
