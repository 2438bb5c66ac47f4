extension Reducer {
    /// A reducer that runs `reducers` in order on the same state (each sees the previous one's changes) and merges
    /// their effects, in the same order.
    public static func combine(_ reducers: Reducer...) -> Reducer {
        combine(reducers)
    }

    /// A reducer that runs `reducers` in order on the same state (each sees the previous one's changes) and merges
    /// their effects, in the same order.
    public static func combine(_ reducers: [Reducer]) -> Reducer {
        if reducers.count == 1 { return reducers[0] }
        return Reducer { state, action in
            var effects: [Effect<Action>] = []
            for reducer in reducers {
                let effect = reducer.reduce(&state, action)
                if !effect.isNone {
                    effects.append(effect)
                }
            }
            return .merge(effects)
        }
    }

    /// This reducer, then `other`, on the same state; effects merged.
    public func combined(with other: Reducer) -> Reducer {
        .combine(self, other)
    }
}
