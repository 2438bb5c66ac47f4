import RewindWire

/// The stretches of unknown state of a Redux DevTools file: what the file does not hold (an extension export of
/// actions only, one without `preloadedState`, a `computedStates` entry without `state`), and the words the import
/// uses for them. The importer records each as an app's coalesced range is recorded (docs/SESSION-FORMAT.md,
/// "Unknown states"): a `dropped` row, the actions without patches, then a `snapshot` row with the next state the
/// file holds.
/// Threading: pure functions.
package enum ReduxUnknownStates {
    /// A run of consecutive actions without a state: their action numbers (`appSeq`, else their position from 1).
    package struct Run {
        var from: Int64
        var to: Int64
        /// Their positions in `computedStates` (1 is the first action's).
        var entries: ClosedRange<Int>
    }

    /// True when the import opens a stretch before the first action (the states from the start are unknown).
    package static func opensAtStart(_ document: ReduxDevToolsFormat.Document) -> Bool {
        (document.actionsOnly && !document.steps.isEmpty) || document.initialState == nil
    }

    /// The `{"from", "to"}` of the stretch opened at the start: the actions without a state from the first one
    /// (`{"from": 0, "to": 0}` when only the initial state is unknown).
    package static func openingRange(_ document: ReduxDevToolsFormat.Document) -> JSONValue {
        guard document.steps.first?.state == nil, !document.steps.isEmpty else { return ["from": 0, "to": 0] }
        let run = run(of: document.steps, from: 0)
        return ["from": .int(run.from), "to": .int(run.to)]
    }

    /// The run of actions without a state that starts at `steps[position]`.
    package static func run(of steps: [ReduxDevToolsFormat.Step], from position: Int) -> Run {
        var end = position
        while end + 1 < steps.count, steps[end + 1].state == nil { end += 1 }
        return Run(from: steps[position].event.appSeq ?? Int64(position + 1),
                   to: steps[end].event.appSeq ?? Int64(end + 1), entries: steps[position].entry...steps[end].entry)
    }

    /// How many rows the import adds to the file's actions: a `dropped` row per stretch, a `snapshot` row where
    /// one ends before the last action.
    package static func extraRows(_ document: ReduxDevToolsFormat.Document) -> Int64 {
        var rows: Int64 = 0
        var open = opensAtStart(document)
        if open { rows += 1 }
        for step in document.steps {
            if step.state == nil {
                if !open { rows += 1 }
                open = true
            } else if open {
                rows += 1
                open = false
            }
        }
        return rows
    }

    /// The `detail` of the `dropped` row opened at the start.
    package static func openingDetail(_ document: ReduxDevToolsFormat.Document, file: String) -> String {
        let actions = document.steps.count
        if document.actionsOnly {
            let unknown = "the Redux DevTools export \(file) holds the actions only: the states after its \(actions) "
                + "action\(actions == 1 ? "" : "s") are unknown"
            guard document.initialState == nil else {
                return unknown + " (the initial state is its preloadedState; the file has no times, all are the file's)"
            }
            return unknown + ", and so is the initial state: the file has no preloadedState, it is recorded as null "
                + "(the file has no times, all are the file's)"
        }
        return "computedStates[0] of \(file) has no \"state\": the initial state is unknown (recorded as null)"
    }

    /// The `detail` of the `dropped` row before a run of entries without a state.
    package static func stretchDetail(_ run: Run, file: String) -> String {
        let entries = run.entries.count == 1
            ? "computedStates[\(run.entries.lowerBound)] has"
            : "computedStates[\(run.entries.lowerBound)]–[\(run.entries.upperBound)] have"
        let actions = run.entries.count == 1 ? "this action" : "these actions"
        return "\(entries) no \"state\" in \(file): the state after \(actions) is unknown"
    }

    /// The import's warning for the states the file does not hold beyond an export of actions only (which the
    /// `dropped` row explains); nil when there is nothing to say.
    package static func warning(_ document: ReduxDevToolsFormat.Document) -> String? {
        let missing = document.actionsOnly ? 0 : document.steps.filter { $0.state == nil }.count
        var parts: [String] = []
        if document.initialState == nil {
            parts.append(document.actionsOnly
                ? "the file has no preloadedState: the initial state is unknown (recorded as null)"
                : "computedStates[0] has no \"state\": the initial state is unknown (recorded as null)")
        }
        if missing > 0 {
            parts.append("\(missing) computedStates entr\(missing == 1 ? "y has" : "ies have") no \"state\": the "
                + "state after \(missing == 1 ? "that action reads" : "those actions read") as unknown")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
