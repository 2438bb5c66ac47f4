extension FixedWidthInteger {
    /// `value` rounded toward zero and clamped to this type's range; NaN becomes 0. Unlike `Self(value)`, it
    /// never traps, so it is the conversion to use on any number that came from a peer or a file (a stored
    /// time, a reducer duration) before formatting or arithmetic.
    ///
    /// Threading: pure.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if let exact = Self(exactly: value.rounded(.towardZero)) {
            self = exact
        } else {
            self = value < 0 ? Self.min : Self.max
        }
    }
}
