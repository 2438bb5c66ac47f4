import RewindInspector
import Testing

/// `REWIND_MEMO_MIN_BYTES` sets the state size from which the inspector encodes incrementally.
@Suite("InspectorConfiguration: the encoding memo's threshold")
struct MemoConfigurationTests {
    @Test("default 16 KiB; a number sets it; off turns the memo off; nonsense keeps the default")
    func threshold() {
        #expect(InspectorConfiguration.fromEnvironment([:]).memoMinimumStateBytes == 16 << 10)
        #expect(InspectorConfiguration.fromEnvironment(["REWIND_MEMO_MIN_BYTES": "0"]).memoMinimumStateBytes == 0)
        #expect(InspectorConfiguration.fromEnvironment(["REWIND_MEMO_MIN_BYTES": "500000"]).memoMinimumStateBytes == 500_000)
        #expect(InspectorConfiguration.fromEnvironment(["REWIND_MEMO_MIN_BYTES": "off"]).memoMinimumStateBytes == Int.max)
        #expect(InspectorConfiguration.fromEnvironment(["REWIND_MEMO_MIN_BYTES": "-3"]).memoMinimumStateBytes == 16 << 10)
        #expect(InspectorConfiguration().memoCheckInterval == 64)
    }
}
