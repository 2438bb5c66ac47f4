import RewindWire

/// Every key of the timeline with what it does: the help overlay lists them all, the footer the ones that
/// apply in the focused pane. Immutable constants: safe from any thread.
package enum KeyBindings {
    /// One key (or several equivalent keys) and its effect.
    package struct Binding: Sendable, Hashable {
        /// How the keys are written: `↑↓ j k`.
        package let keys: String
        /// What they do: `move`.
        package let action: String

        /// Creates a binding.
        package init(_ keys: String, _ action: String) {
            self.keys = keys
            self.action = action
        }
    }

    /// A titled group of bindings in the help overlay.
    package struct Section: Sendable, Hashable {
        /// The group's title.
        package let title: String
        /// Its bindings.
        package let bindings: [Binding]
    }

    /// Everything, for the `?` overlay.
    package static let help: [Section] = [
        Section(title: "Move", bindings: [
            Binding("↑ ↓  k j", "previous / next row"),
            Binding("PgUp PgDn", "page up / down"),
            Binding("^B ^F ^U ^D", "page / half page"),
            Binding("g G Home End", "first / last (follows)"),
            Binding(":", "go to event/time/%"),
            Binding("Tab S-Tab", "next / previous pane"),
            Binding("M", "session map on / off"),
            Binding("C", "chart: next metric/off"),
            Binding("← →", "chart: prev/next slice"),
        ]),
        Section(title: "Events", bindings: [
            Binding("Enter", "jump app to this state"),
            Binding("< >  , .", "step back/fwd + jump"),
            Binding("s", "skip / un-skip action"),
            Binding("r", "replay from here"),
            Binding("d", "dispatch action (JSON)"),
            Binding("e", "export the session"),
            Binding("x Del", "delete saved session"),
            Binding("S", "stats: cost per label"),
        ]),
        Section(title: "View", bindings: [
            Binding("/", "search labels (regex)"),
            Binding("/a: /s:", "…actions / states"),
            Binding("/… Tab", "only matching rows"),
            Binding("/-kind,kind", "hide rows of kinds"),
            Binding("n N", "next / previous match"),
            Binding("Esc", "cancel search / clear"),
            Binding("f", "follow live events"),
            Binding("p", "pause / resume live"),
            Binding("t", "relative / clock time"),
            Binding("[ ]  1 2 3", "Action Diff State tab"),
            Binding("Enter ← →", "fold the state tree"),
            Binding("Enter v", "view value/more items"),
            Binding("o  y Y", "$PAGER; copy value/ptr"),
            Binding("b B  w  m", "history; pin; compare"),
        ]),
        Section(title: "Other", bindings: [
            Binding("?  F1", "this help"),
            Binding("^L", "redraw the screen"),
            Binding("q  ^C", "quit (asks if apps on)"),
        ]),
    ]

    /// The hints always shown at the right end of the footer when no dialog is open.
    package static let footerTail = [Binding("?", "help"), Binding("q", "quit")]

    /// The footer's hints for the focused pane (or the open dialog), without `footerTail`: only the keys that can
    /// work here. `cursorEvent` is the selected row (nil for the initial state or when it is not known): the keys
    /// that need the app (jump, step, skip, replay, dispatch) show only when the session's app is connected to
    /// this timeline, and not where the recording refuses them (no jump onto an unknown state, no skip or replay on
    /// a recomputed branch row or after an unknown state, no skip of the initial state).
    /// `detailLine` is the detail pane's line under its cursor: Enter, `v`, `o`, `y`, `Y` show only where they do
    /// something there. In the sessions pane, `x Del` (delete) shows only on a session this timeline may delete
    /// (`TimelineModel.deletionRefusal(for:)`: a saved one, not live, where the timeline owns the data directory).
    package static func footer(
        for model: TimelineModel, cursorEvent: TimelineEvent? = nil, detailLine: DetailLine? = nil
    ) -> [Binding] {
        switch model.dialog {
        case .help:
            return [Binding("any key", "closes the help")]
        case .confirmQuit:
            return [Binding("y", "quit"), Binding("n Esc", "stay")]
        case .confirmDelete:
            return [Binding("y", "delete"), Binding("any other key", "keep")]
        case .viewer:
            return [Binding("↑↓ PgUp PgDn", "scroll"), Binding("o", "pager"), Binding("y", "copy"),
                    Binding("Y", "copy pointer"), Binding("Esc", "close")]
        case .stats:
            return [Binding("↑↓", "select"), Binding("c t p z", "sort by count/total/p99/patches"),
                    Binding("Tab", "slowest/largest events"), Binding("Enter", "go to its events"),
                    Binding("Esc", "close")]
        case .prompt(let prompt):
            switch prompt.kind {
            case .filter:
                return [Binding("Enter", "search"), Binding("Esc", "cancel"), Binding("↑↓", "past searches"),
                        Binding("^U", "clear"), Binding("Tab", "only matching rows"), Binding("a:text", "actions"),
                        Binding("s:/p == v", "states"), Binding("-kind,…", "hide")]
            case .dispatch:
                return [Binding("Enter", "dispatch"), Binding("Esc", "cancel"), Binding("^U", "clear")]
            case .goTo:
                return [Binding("Enter", "go"), Binding("Esc", "cancel"), Binding("^U", "clear")]
            }
        case nil:
            break
        }
        switch model.focus {
        case .sessions:
            var bindings = [Binding("↑↓", "select"), Binding("Enter", "open")]
            if let session = model.selectedSession {
                bindings.append(Binding("e", "export"))
                if model.deletionRefusal(for: session) == nil { bindings.append(Binding("x Del", "delete")) }
            }
            return bindings + [Binding("Tab", "pane")]
        case .timeline:
            return timelineFooter(model, cursorEvent: cursorEvent)
        case .detail:
            var bindings = [Binding("↑↓", "move"), Binding("[ ]", "tab")]
            if let line = detailLine, line.path != nil {
                if line.isMore {
                    bindings.append(Binding("Enter", "show more"))
                } else {
                    let folds = model.detailTab == .state && line.isContainer
                    bindings.append(Binding("Enter", folds ? "fold" : "view"))
                    if folds { bindings.append(Binding("v", "view")) }
                    bindings += [Binding("o", "pager"), Binding("y Y", "copy value/pointer")]
                    if model.detailTab == .state {
                        bindings.append(Binding("b B", "changes"))
                        bindings.append(Binding("w", model.pinnedPointers.contains(line.path ?? "") ? "unpin" : "pin"))
                    }
                }
            }
            if model.detailTab == .state { bindings.append(Binding("← →", "collapse/expand")) }
            return bindings + [Binding("Tab", "pane")]
        }
    }

    private static func timelineFooter(_ model: TimelineModel, cursorEvent: TimelineEvent?) -> [Binding] {
        guard let session = model.selectedSession else {
            return [Binding("Tab", "pane")]
        }
        var bindings = [Binding("↑↓", "move")]
        let event = model.cursor > 0 ? cursorEvent.flatMap { $0.index == model.cursor ? $0 : nil } : nil
        let onMainLine = event.map { $0.branch == 0 && !$0.stateBeforeUnknown } ?? true
        // The most used first: the footer is cut at the right on narrow terminals.
        if session.appConnected && session.offers(WireCapability.jump) {
            if event?.stateUnknown != true { bindings.append(Binding("Enter", "jump")) }
            bindings.append(Binding("< >", "step"))
        }
        bindings += [Binding(":", "go to"), Binding("/", "search")]
        if model.showsChart { bindings.append(Binding("← →", "slice")) }
        if model.search != nil {
            bindings.append(Binding("Esc", "cancel search"))
        } else if model.searchQuery != nil {
            bindings.append(Binding("n/N", "match"))
        }
        if session.appConnected {
            let replays = session.offers(WireCapability.replay)
            if replays && session.offers(WireCapability.jump) && model.cursor > 0 && onMainLine {
                bindings.append(Binding("s", "skip"))
            }
            if replays && onMainLine { bindings.append(Binding("r", "replay")) }
            if session.offers(WireCapability.dispatch) { bindings.append(Binding("d", "dispatch")) }
        }
        if model.paused {
            bindings.append(Binding("p", "resume"))
        } else if model.sessions.contains(where: { $0.status == .live }) {
            bindings.append(Binding("p", "pause"))
        }
        if session.status == .live && !model.following { bindings.append(Binding("f", "follow")) }
        bindings += [Binding("C", "chart"),
                     Binding("t", "time"), Binding("e", "export"), Binding("Tab", "pane")]
        return bindings
    }
}
