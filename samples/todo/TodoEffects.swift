import Rewind

/// The todo app's side effects, as values: the reducer returns them, the interpreter built by
/// `Interpreter.live(file:fileSystem:ids:)` performs them.
///
/// Threading: plain values; performed on the main actor.
enum TodoEffects {
    /// The next id from the injected generator.
    struct NextID: EffectDescription {
        typealias Output = Int
    }

    /// Write `todos` to the list's file; succeeds with the number of items written.
    struct Save: EffectDescription {
        typealias Output = Result<Int, FileError>
        let todos: [Todo]
    }

    /// Read the list from its file.
    struct Load: EffectDescription {
        typealias Output = Result<[Todo], FileError>
    }

    /// Why the file could not be written or read, as a sentence for the status line.
    struct FileError: Error, Equatable {
        let reason: String
    }
}
