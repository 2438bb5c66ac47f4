import Foundation
import RewindSessionFile
import RewindWire

/// The newest saved session of each app run (name and instance) found in the data directory, so that a `hello`
/// after a daemon restart finds the session it continues without opening any file: built once, in the background,
/// when the daemon starts (one small query per file), then looked up in memory. Sessions the daemon records after
/// that are known to the ``SessionRegistry`` itself.
///
/// Threading: any thread; guarded by `condition`. ``build(from:)`` runs once on a background queue;
/// ``newest(of:)`` waits until it has finished (only hellos arriving within the first moments after a start wait).
final class SavedSessionIndex: @unchecked Sendable {  // all mutable state guarded by `condition`
    private let condition = NSCondition()
    private var newest: [AppIdentity: SessionOwner]?

    /// Reads who recorded each session of `store` and keeps the newest one of every app run.
    func build(from store: SessionStore) {
        let owners = (try? store.sessionOwners()) ?? []
        var table: [AppIdentity: SessionOwner] = [:]
        for owner in owners {
            guard let instance = owner.instance else { continue }
            let key = AppIdentity(name: owner.appName, instance: instance)
            if let current = table[key], (current.startedAt, current.id) >= (owner.startedAt, owner.id) { continue }
            table[key] = owner
        }
        condition.lock()
        newest = table
        condition.broadcast()
        condition.unlock()
    }

    /// The newest saved session of the app run `app`, once the index is built.
    func newest(of app: AppIdentity) -> SessionOwner? {
        condition.lock()
        defer { condition.unlock() }
        while newest == nil { condition.wait() }
        return newest?[app]
    }

    /// Forgets the entry of `app` (its session is now known to the registry).
    func forget(_ app: AppIdentity) {
        condition.lock()
        newest?[app] = nil
        condition.unlock()
    }
}
