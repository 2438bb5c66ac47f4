import BenchKit
import Testing

@Suite("Sampler")
struct SamplerTests {
    @Test("collects at least the minimum number of samples and stops at the maximum")
    func counts() {
        var calls = 0
        let few = Sampler.collect(SamplingPlan(minSamples: 10, minSeconds: 0, maxSamples: 10)) {
            calls += 1
            return Double(calls)
        }
        #expect(few.count == 10)
        #expect(calls == 10)
        let capped = Sampler.collect(SamplingPlan(minSamples: 5, minSeconds: 3_600, maxSamples: 50)) { 1 }
        #expect(capped.count == 50)
    }

    @Test("the time cap ends slow work after three samples, below the minimum count")
    func timeCap() {
        let samples = Sampler.collect(SamplingPlan(minSamples: 1_000, minSeconds: 0, maxSeconds: 0)) { 1 }
        #expect(samples.count == 3)
    }

    @Test("timing runs the warm-up first and records only the timed runs")
    func warmup() {
        var runs = 0
        let samples = Sampler.time(SamplingPlan(minSamples: 4, minSeconds: 0, maxSamples: 4), warmup: 2) {
            runs += 1
        }
        #expect(runs == 6)
        #expect(samples.count == 4)
        #expect(samples.minimum >= 0)
    }
}
