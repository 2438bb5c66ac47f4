/// Delivers a module's outputs to its observers, in the order they started observing.
///
/// Threading: main actor.
@MainActor
final class OutputRelay<Output> {
    private final class Observer {
        var isActive = true
        let deliver: @MainActor (Output) -> Bool

        init(_ deliver: @escaping @MainActor (Output) -> Bool) {
            self.deliver = deliver
        }
    }

    private var observers: [Observer] = []

    /// Adds an observer; `deliver` returns false when its owner is gone.
    func observe(_ deliver: @escaping @MainActor (Output) -> Bool) -> SubscriptionToken {
        let observer = Observer(deliver)
        observers.append(observer)
        return SubscriptionToken { [weak self, weak observer] in
            guard let observer else { return }
            observer.isActive = false
            self?.observers.removeAll { $0 === observer }
        }
    }

    /// Delivers `output` to the observers present when it was emitted.
    func deliver(_ output: Output) {
        let current = observers
        var someEnded = false
        for observer in current where observer.isActive {
            if !observer.deliver(output) {
                observer.isActive = false
                someEnded = true
            }
        }
        if someEnded {
            observers.removeAll { !$0.isActive }
        }
    }
}
