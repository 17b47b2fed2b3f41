import Testing
import TouchEvents

/// A threshold kept with its microseconds follows every change of the duration.
struct WithMicrosecondsTests {
    final class Threshold {
        @WithMicroseconds var timeout: Duration = .milliseconds(250)
    }

    @Test func theMicrosecondsFollowTheDuration() {
        let t = Threshold()
        #expect(t.$timeout.microseconds == 250_000)
        t.timeout = .seconds(1.5)
        #expect(t.timeout == .seconds(1.5) && t.$timeout.microseconds == 1_500_000)
        t.timeout = .nanoseconds(1_999)  // truncated toward zero, as Duration.inMicroseconds is
        #expect(t.$timeout.microseconds == 1)
        #expect(Instant.zero.advanced(byMicroseconds: t.$timeout.microseconds) == Instant(microseconds: 1))
    }
}
