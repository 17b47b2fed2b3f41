import Gestures
import Testing

@Suite struct NumberFormattingTests {
    @Test func decimalsDropTrailingZerosButKeepOne() {
        #expect(formatDecimal(73.6, places: 3) == "73.6")
        #expect(formatDecimal(150, places: 1) == "150.0")
        #expect(formatDecimal(0.01234, places: 4) == "0.0123")
        #expect(formatDecimal(-2.5, places: 2) == "-2.5")
        #expect(formatDecimal(.nan, places: 2) == "0.0")
    }

    @Test func zeroPlacesIsAWholeNumber() {
        #expect(formatDecimal(44.6, places: 0) == "45")
        #expect(formatDecimal(-60.2, places: 0) == "-60")
        #expect(formatDecimal(0, places: 0) == "0")
        #expect(formatDecimal(.infinity, places: 0) == "0")
    }

    @Test func secondsFromMicroseconds() {
        #expect(formatSecondsTrimmed(12_300) == "0.0123")
        #expect(formatSecondsTrimmed(2_000_000) == "2.0")
        #expect(formatSecondsTrimmed(-500_000) == "-0.5")
    }
}
