/// Which sessions the sessions pane may delete (`x` / Delete): the footer offers the key only where this says
/// yes, and the controller refuses with the same sentence.
extension TimelineModel {
    /// Why `session` cannot be deleted from this timeline, or nil when it can: the timeline must own its data
    /// directory (`deletesSessions`: the timeline of `rewind`, not `rewind open` or a viewer attached to another
    /// rewind), and the session must be neither live (an app is being recorded into it, here or by another
    /// rewind) nor the one the timeline was opened on.
    package func deletionRefusal(for session: TimelineSession) -> StatusMessage? {
        if session.status == .live {
            let recorder = session.appConnected ? "its app is connected and being recorded"
                                                : "another rewind is recording it"
            return StatusMessage("not deleting session \(session.id): it is live (\(recorder)); it can be deleted "
                + "once its app disconnects", isError: true)
        }
        if !deletesSessions || session.id == openedSessionID {
            return StatusMessage("not deleting session \(session.id): this timeline only views it; delete saved "
                + "sessions in the sessions pane of the rewind that records them, or with 'rewind sessions "
                + "--delete \(session.id)'", isError: true)
        }
        return nil
    }
}
