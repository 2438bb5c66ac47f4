// docs/INTEGRATIONS.md, verbatim (IntegrationSnippetTests keeps the two equal): edit both together.
import Observation
import RewindInspector

struct Snapshot: Codable, Sendable { var count: Int; var title: String }
enum ModelAction: Codable, Sendable { case increment, rename(String) }

@MainActor @Observable final class CounterModel {
    var count = 0
    var title = "Counter"
    @ObservationIgnored private var recorder: Recorder<Snapshot, ModelAction>?

    init() {
        let model = self
        var host = RecorderHost<Snapshot, ModelAction>(currentState: { MainActor.assumeIsolated { model.snapshot } })
        host.offerJump { s in MainActor.assumeIsolated { model.count = s.count; model.title = s.title } }
        host.offerDispatch { a in MainActor.assumeIsolated { model.apply(a) } }
        recorder = Recorder(name: "counter", initialState: snapshot, host: host)
    }

    var snapshot: Snapshot { Snapshot(count: count, title: title) }

    func increment() { apply(.increment) }
    func rename(_ title: String) { apply(.rename(title)) }

    private func apply(_ action: ModelAction) {
        switch action {
        case .increment: count += 1
        case .rename(let title): self.title = title
        }
        recorder?.record(action, state: snapshot)
    }
}
