// docs/INTEGRATIONS.md, verbatim (IntegrationSnippetTests keeps the two equal): edit both together.
import Foundation
import RewindInspector

/// A "report a bug" button's action: the last actions, as a file to attach.
func reportBug(from user: String, attach: (URL) -> Void) {
    if let file = Inspector.captureNow(reason: "report from \(user)").first {
        attach(file)  // hand it to a share sheet, or attach it to the bug report
    }
}

/// An error the app reports anyway.
func report(_ error: any Error) {
    print("error: \(error)")
    Inspector.captureNow(reason: "error: \(error)")
}

/// Assertion failures, routed through one function of the app's.
func check(_ condition: @autoclosure () -> Bool, _ message: String) {
    guard !condition() else { return }
    Inspector.captureNow(reason: "assertion: \(message)")
    assertionFailure(message)
}
