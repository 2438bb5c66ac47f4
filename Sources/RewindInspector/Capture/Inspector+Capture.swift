import Foundation

extension Inspector {
    /// Writes the last actions every inspector of this process kept in memory to capture files — one file per store,
    /// in the capture directory — and returns where they are: for a "report a bug" button (hand the file to a share
    /// sheet, attach it to a bug report), an error the app reports, or an assertion failure it routes here.
    /// `rewind import` reads the files; `rewind open`, `verify` and `replay --into` then work on them like on any
    /// session.
    ///
    /// Each file holds the last ``InspectorConfiguration/captureRecentActions`` actions (`REWIND_CAPTURE_RECENT`) with
    /// the state before the first of them, redacted like everything the inspector sends; with that setting at 0 (the
    /// default) nothing is kept and nothing is written (said on standard error). Actions dispatched before the call are
    /// included once the inspector's thread has encoded them (it waits up to half a second for that).
    ///
    /// - Parameters:
    ///   - reason: Why, in the app's words: kept in the file's header and shown by `rewind import`.
    ///   - timeout: How long to wait for the files, in seconds.
    /// - Returns: The files written (empty when none could be: the reasons are on standard error).
    ///
    /// Threading: any thread; blocks the caller until the files are written (usually a few milliseconds; at most
    /// `timeout`). Never call it from the inspector's own callbacks.
    @discardableResult
    public static func captureNow(reason: String, timeout: Double = 2) -> [URL] {
        InspectorRegistry.shared.captureNow(reason: reason, timeout: timeout)
    }

    /// ``captureNow(reason:timeout:)`` for the inspectors recording under the app name `name` only.
    @discardableResult
    public static func captureNow(app name: String, reason: String, timeout: Double = 2) -> [URL] {
        InspectorRegistry.shared.captureNow(reason: reason, app: name, timeout: timeout)
    }
}
