/// The `?` overlay: every key, grouped, in two columns when the terminal is wide enough (one otherwise), then where
/// the sessions are and how apps reach this rewind (`facts`: below the keys when there is room, else on the box's
/// bottom edge), in a framed box over the panes. Taller than the
/// screen, it scrolls (↑↓ PgUp PgDn; the title says so). Pure rendering.
package struct HelpOverlay {
    /// Lines shown below the keys (the data directory, the `REWIND_URL` apps need): see `TimelineModel.facts`.
    package var facts: [String]

    /// Creates the view.
    package init(facts: [String] = []) {
        self.facts = facts
    }

    private typealias Line = [(column: Int, spans: [TextSpan])]

    /// The content's lines for `area`, its width, and whether the facts are among the lines.
    private func content(for area: Rect) -> (lines: [Line], width: Int, factsBelow: Bool) {
        let sections = KeyBindings.help
        let keyWidth = sections.flatMap(\.bindings).map { DisplayWidth.of($0.keys) }.max() ?? 0
        let actionWidth = sections.flatMap(\.bindings).map { DisplayWidth.of($0.action) }.max() ?? 0
        let columnWidth = keyWidth + 2 + actionWidth
        let twoColumns = area.width >= 2 * columnWidth + 8
        let groups: [[KeyBindings.Section]] = twoColumns
            ? [Array(sections.prefix(2)), Array(sections.dropFirst(2))]
            : [sections]
        var lines: [Line] = []
        for (groupOffset, group) in groups.enumerated() {
            let column = groupOffset * (columnWidth + 4)
            var row = 0
            func add(_ spans: [TextSpan]) {
                while lines.count <= row { lines.append([]) }
                lines[row].append((column, spans))
                row += 1
            }
            for (offset, section) in group.enumerated() {
                if offset > 0 { add([]) }
                add([TextSpan(section.title, Theme.title)])
                for binding in section.bindings {
                    let padding = String(repeating: " ", count: max(0, keyWidth - DisplayWidth.of(binding.keys)) + 2)
                    add([TextSpan(binding.keys, Theme.key), TextSpan(padding + binding.action)])
                }
            }
        }
        var width = twoColumns ? 2 * columnWidth + 4 : columnWidth
        // The facts go below the keys when there is room; otherwise on the box's bottom edge (see `render`).
        let factsBelow = !facts.isEmpty && lines.count + 1 + facts.count + 2 <= area.height
        if factsBelow {
            lines.append([])
            for fact in facts {
                lines.append([(0, [TextSpan(fact, Theme.dim)])])
                width = max(width, DisplayWidth.of(fact))
            }
        }
        return (lines, min(width, max(0, area.width - 4)), factsBelow)
    }

    /// The most lines the content can be scrolled by in `area` (0 when it fits).
    package func maximumScroll(area: Rect) -> Int {
        max(0, content(for: area).lines.count - max(0, area.height - 2))
    }

    /// Draws centred in `area`, from line `scroll` of the content (clamped).
    package func render(into buffer: inout ScreenBuffer, area: Rect, scroll: Int = 0) {
        let (lines, width, factsBelow) = content(for: area)
        let box = Box.centered(width: width + 4, height: lines.count + 2, in: area)
        let shown = max(0, box.height - 2)
        let first = min(max(0, scroll), max(0, lines.count - shown))
        let title = lines.count > shown
            ? "Keys \(first + 1)–\(first + shown) of \(lines.count): ↑↓ scroll, any other key closes"
            : "Keys — any key closes"
        let inner = Box.draw(into: &buffer, rect: box, title: title)
        if !facts.isEmpty && !factsBelow && box.height >= 2 {
            buffer.put(" " + facts.joined(separator: " · ") + " ", row: box.bottom - 1, column: box.column + 2,
                       style: Theme.dim, maxWidth: max(0, box.width - 4))
        }
        for (offset, line) in lines[first..<min(lines.count, first + shown)].enumerated() {
            for (column, spans) in line {
                let left = inner.column + column
                guard left < inner.right else { continue }
                buffer.put(spans, row: inner.row + offset, column: left, width: inner.right - left)
            }
        }
    }
}
