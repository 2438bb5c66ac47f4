import BenchKit
import Testing

@Suite("Samples")
struct SamplesTests {
    @Test("percentiles are nearest-rank values that were measured")
    func nearestRank() {
        let samples = Samples((1...100).map(Double.init).reversed())
        #expect(samples.median == 50)
        #expect(samples.p99 == 99)
        #expect(samples.percentile(1) == 100)
        #expect(samples.percentile(0) == 1)
        #expect(samples.minimum == 1 && samples.maximum == 100)
    }

    @Test("the p99 of a thousand values is the 990th smallest")
    func p99OfAThousand() {
        let samples = Samples((1...1_000).map(Double.init).shuffled())
        #expect(samples.p99 == 990)
        #expect(samples.median == 500)
    }

    @Test("a single sample is its own median and p99; no samples give NaN")
    func edgeCases() {
        #expect(Samples([7]).median == 7)
        #expect(Samples([7]).p99 == 7)
        #expect(Samples([]).median.isNaN)
        #expect(Samples([]).mean.isNaN)
    }

    @Test("subtracting an offset never goes below zero")
    func subtracting() {
        let samples = Samples([5, 10, 30]).subtracting(8)
        #expect(samples.sorted == [0, 2, 22])
    }
}
