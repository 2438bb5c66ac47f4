import RewindWire

/// The Action tab: the event's facts, then its action pretty-printed. Pure: safe from any thread.
package enum ActionDetail {
    /// The lines for `event` of a session that started at `sessionStart` (unix seconds).
    /// `limits`: how many children the action's containers at these JSON Pointers list (see `JSONLines`).
    package static func lines(
        _ event: TimelineEvent, sessionStart: Double, limits: [String: Int] = [:]
    ) -> [DetailLine] {
        var output: [DetailLine] = []
        var title = [
            TextSpan("#\(event.index) ", Theme.dim),
            TextSpan(event.displayLabel, CellStyle(bold: true)),
        ]
        if event.kind != .action {
            title.append(TextSpan("  \(event.kind.rawValue)", Theme.marker(event.kind)))
        }
        if event.isSkipped {
            title.append(TextSpan("  skipped", Theme.warning))
        }
        output.append(DetailLine(title))
        var facts: [TextSpan] = [
            TextSpan("time ", Theme.dim),
            // The date too: the time column shows only the clock (or the time since the start).
            TextSpan(String(Formatting.dateTime(event.time).prefix(10)) + " " + Formatting.clockTime(event.time)
                + (event.beforeConnect
                ? " (dispatched before the app connected; sent when it did)"
                : " (" + Formatting.relativeTime(event.time - sessionStart) + ")")),
        ]
        if let appSeq = event.appSeq {
            facts += [TextSpan("  seq ", Theme.dim), TextSpan(String(appSeq))]
        }
        if let micros = event.reducerMicros {
            facts += [TextSpan("  reducer ", Theme.dim), TextSpan(Formatting.duration(micros: micros))]
        }
        if let patch = event.patch {
            let count = patch.operations.count
            facts += [TextSpan("  patch ", Theme.dim), TextSpan(count == 1 ? "1 op" : "\(Formatting.grouped(count)) ops")]
        }
        if event.branch != 0 {
            facts += [TextSpan("  branch ", Theme.dim), TextSpan(String(event.branch))]
            if let recomputed = event.recomputes {
                facts += [TextSpan("  recomputes ", Theme.dim), TextSpan("#\(recomputed)")]
            }
        }
        output.append(DetailLine(facts))
        if event.stateUnknown {
            let why = event.unknownReason.map { ": \($0.phrase)" } ?? ""
            output.append(DetailLine([TextSpan("state unknown: not recorded\(why)", Theme.unknown)]))
        }
        if let text = event.detail {
            output.append(DetailLine([TextSpan(text, event.kind == .error ? Theme.error : Theme.plain)]))
        }
        if let action = event.action {
            output += JSONLines.lines(action, limits: limits)
        } else {
            output.append(DetailLine([TextSpan("(no action payload)", Theme.dim)]))
        }
        return output
    }

    /// The Action tab of row 0, which stands for the initial state.
    package static func initialStateLines() -> [DetailLine] {
        [
            DetailLine([TextSpan("#0 ", Theme.dim), TextSpan("initial state", CellStyle(bold: true))]),
            DetailLine([TextSpan("The state the app started with; see the State tab. Enter jumps to it.", Theme.dim)]),
        ]
    }
}
