/// A state with a natural initial value, `init()`. A ``ScreenModule`` whose state adopts it gets the no-argument
/// `createScreen()`.
///
/// Threading: none of its own.
public protocol DefaultInitializable {
    /// The initial value.
    init()
}
