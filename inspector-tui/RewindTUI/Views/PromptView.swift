/// The row above the footer: the open prompt (`/regex` or `dispatch JSON: …`, with a reverse-video cursor and
/// the reason a submission was refused), or the sessions pane's question ("Delete session … (counter, 1,204
/// events)? y/n"), or else the status message (errors red and bold), or else what the
/// running command is doing ("jumping to event 12…", in the warning colour). A long message wraps onto the rows
/// the layout gave it (up to three); a long prompt scrolls horizontally so that the cursor stays visible. Pure
/// rendering.
package struct PromptView {
    /// The model to draw.
    package var model: TimelineModel

    /// Creates the view.
    package init(model: TimelineModel) {
        self.model = model
    }

    /// Draws into `rect`: the prompt or question on its first row, or the status text wrapped onto its rows.
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect)
        if case .prompt(let prompt) = model.dialog {
            renderPrompt(prompt, into: &buffer, rect: rect)
        } else if case .confirmDelete(let session) = model.dialog {
            buffer.put([TextSpan(" Delete session \(session.shortID) (\(session.summary))? ", Theme.warning),
                        TextSpan("y/n", Theme.key)], row: rect.row, column: rect.column, width: rect.width)
        } else if let text = model.statusText {
            let style = model.status != nil ? (text.isError ? Theme.error : Theme.plain) : Theme.warning
            let lines = WrappedText.lines(text.text, width: rect.width - 1, limit: rect.height)
            for (offset, line) in lines.enumerated() {
                buffer.put(line, row: rect.row + offset, column: rect.column + 1, style: style,
                           maxWidth: rect.width - 1)
            }
        }
    }

    private func renderPrompt(_ prompt: PromptState, into buffer: inout ScreenBuffer, rect: Rect) {
        var column = rect.column
        column += buffer.put(prompt.label, row: rect.row, column: column, style: Theme.key, maxWidth: rect.width)
        var errorText = ""
        if let error = prompt.error { errorText = "  " + error }
        let errorWidth = min(DisplayWidth.of(errorText), max(0, (rect.right - column) / 2))
        let fieldWidth = max(1, rect.right - column - errorWidth)
        let characters = prompt.editor.characters
        let cursor = prompt.editor.cursor
        // Scroll so that the cursor cell is inside the field.
        var start = 0
        var widthBeforeCursor = characters[..<cursor].reduce(0) { $0 + DisplayWidth.of($1) }
        while widthBeforeCursor >= fieldWidth && start < cursor {
            widthBeforeCursor -= DisplayWidth.of(characters[start])
            start += 1
        }
        var x = column
        for position in start...characters.count {
            let isCursor = position == cursor
            let character: Character = position < characters.count ? characters[position] : " "
            let width = max(1, DisplayWidth.of(character))
            guard x + width <= column + fieldWidth else { break }
            buffer.put(String(character), row: rect.row, column: x, style: isCursor ? Theme.selection : Theme.plain,
                       maxWidth: width)
            x += width
        }
        if errorWidth > 0 {
            buffer.put(errorText, row: rect.row, column: rect.right - errorWidth, style: Theme.error, maxWidth: errorWidth)
        }
    }
}
