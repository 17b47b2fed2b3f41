import GestureTesting
import GestureRuntime
import Gestures
import Logging
import Testing
import TouchEvents
import TouchInputTesting

@Suite("Frame latency")
struct LatencyMeterTests {
    @Test func histogramsAreExactBelow64MicrosecondsAndWithin3PercentAbove() {
        var h = LatencyMeter.Histogram()
        #expect(h.percentile(0.5) == nil)
        for v: Int64 in [5, 7, 7, 63] { h.record(microseconds: v) }
        #expect(h.percentile(0.5) == 7)
        #expect(h.percentile(0.25) == 5)
        #expect(h.percentile(1) == 63)
        #expect(h.json == "{\"count\": 4, \"p50_us\": 7, \"p99_us\": 63, \"max_us\": 63}")

        for v: Int64 in [64, 100, 1234, 98_765, 3_600_000_000] {
            var one = LatencyMeter.Histogram()
            one.record(microseconds: v)
            one.record(microseconds: v)  // the maximum alone would hide the bucket
            var other = LatencyMeter.Histogram()
            other.record(microseconds: v)
            other.record(microseconds: v + v / 2)
            let p = other.percentile(0.5)!
            #expect(abs(Double(p - v)) <= Double(v) * 0.03, "\(v) is read back as \(p)")
        }
        var negative = LatencyMeter.Histogram()
        negative.record(microseconds: -40)
        #expect(negative.percentile(0.99) == 0, "a time stamp after the clock counts as no delay")
    }

    @Test func aFrameIsTimedFromItsKernelStampAndFromTheWakeup() {
        var meter = LatencyMeter()
        meter.record(eventTime: Instant(microseconds: 1_000), wokeAt: Instant(microseconds: 1_300), handledAt: Instant(microseconds: 1_350),
                     deliveredGesture: false)
        meter.record(eventTime: Instant(microseconds: 2_000), wokeAt: Instant(microseconds: 1_900), handledAt: Instant(microseconds: 2_020),
                     deliveredGesture: true)
        #expect(meter.frames.percentile(1) == 348)  // 350 falls in the bucket 344–351
        #expect(meter.frames.maximumMicroseconds == 350)
        #expect(meter.processing.maximumMicroseconds == 50)
        #expect(meter.processing.percentile(0) == 20, "read in the same wakeup: counted from the stamp")
        #expect(meter.gestures.count == 1)
        #expect(meter.gestures.maximumMicroseconds == 20)
        #expect(meter.json.hasPrefix("{\"frame\": {\"count\": 2,"))
        meter.record(eventTime: Instant(microseconds: 3_000), wokeAt: nil, handledAt: Instant(microseconds: 3_100), deliveredGesture: false)
        #expect(meter.frames.count == 3 && meter.processing.count == 2, "a wakeup not timed counts in the frames only")
        #expect((0..<17).map { _ in meter.timesWakeup() }.enumerated().filter(\.element).map(\.offset) == [0, 8, 16])
    }

    @Test func theRuntimeTimesEveryFrameItReads() throws {
        let clock = ManualClock(start: .zero)
        let monitor = ManualDeviceMonitor()
        let runtime = try GestureRuntime(source: .standard, clock: clock, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) {
            monitor
        }
        #expect(runtime.latency == nil, "nothing is measured unless asked")
        runtime.latency = LatencyMeter()
        try runtime.start()
        let device = try PipeTouchDevice(node: "/dev/input/event9", description: panel)
        monitor.plugIn(device)
        runtime.runOnce(timeout: 0)
        var e = Events()
        e.tap(at: 0, x: 20, y: 30)  // two frames: down at 0 ms, up at 60 ms
        var frame: [InputEvent] = []
        for event in e.events {
            frame.append(event)
            guard event.isReport else { continue }
            device.write(frame)
            frame.removeAll()
            // Each frame is read 4 ms after the kernel stamped it.
            clock.advance(to: event.time + .milliseconds(4))
            runtime.runOnce(timeout: 0)
        }
        clock.advance(by: .seconds(1))
        runtime.runOnce(timeout: 0)  // the tap is recognized here, at its deadline: in no frame
        var g = Events()
        g.down(at: 2000, x: 50, y: 50)  // a frame that delivers nothing
        device.write(g.events)
        clock.advance(to: .zero + .milliseconds(2004))
        runtime.runOnce(timeout: 0)
        runtime.shutdown()
        let latency = try #require(runtime.latency)
        #expect(latency.frames.count == 3)
        #expect(latency.frames.maximumMicroseconds == 4_000)
        #expect(latency.processing.maximumMicroseconds == 0, "the manual clock stands still while the frame is handled")
        #expect(latency.processing.count == 1, "the first wakeup of eight is timed from its start")
        #expect(latency.gestures.count == 0, "the tap delivered at its deadline belongs to no frame")
    }
}
