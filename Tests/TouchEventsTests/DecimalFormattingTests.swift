import Testing
import TouchEvents

@Suite struct DecimalFormattingTests {
    @Test func decimalsDropTrailingZerosButKeepOne() {
        #expect(formatDecimal(73.6, places: 3) == "73.6")
        #expect(formatDecimal(150, places: 1) == "150.0")
        #expect(formatDecimal(0.01234, places: 4) == "0.0123")
        #expect(formatDecimal(-2.5, places: 2) == "-2.5")
        #expect(formatDecimal(-0.04, places: 1) == "0.0")
        #expect(formatDecimal(.nan, places: 2) == "0.0")
    }

    @Test func zeroPlacesIsAWholeNumber() {
        #expect(formatDecimal(44.6, places: 0) == "45")
        #expect(formatDecimal(-60.2, places: 0) == "-60")
        #expect(formatDecimal(0, places: 0) == "0")
        #expect(formatDecimal(.infinity, places: 0) == "0")
    }

    @Test func trailingZerosKeptOrAllDropped() {
        #expect(formatDecimal(1.5, places: 2, trailingZeros: .keep) == "1.50")
        #expect(formatDecimal(-0.25, places: 1, trailingZeros: .keep) == "-0.3")
        #expect(formatDecimal(16, places: 6, trailingZeros: .trimAll) == "16")
        #expect(formatDecimal(2.5, places: 6, trailingZeros: .trimAll) == "2.5")
    }

    @Test func secondsFromDurationsAndInstants() {
        #expect(formatSeconds(.microseconds(12_300)) == "0.0123")
        #expect(formatSeconds(.seconds(2)) == "2.0")
        #expect(formatSeconds(.milliseconds(-500)) == "-0.5")
        #expect(Instant(microseconds: 12_000_345).description == "12.000345s")
        #expect(Instant(microseconds: -500_000).description == "-0.500000s")
    }

    @Test func instantsAndDurations() {
        let t = Instant(microseconds: 1_000_000)
        #expect(t + .milliseconds(250) == Instant(microseconds: 1_250_000))
        #expect(t - .milliseconds(250) == Instant(microseconds: 750_000))
        #expect((t + .seconds(2)) - t == .seconds(2))
        #expect(Instant(seconds: 3, microseconds: 7) == Instant(microseconds: 3_000_007))
        #expect(Instant(seconds: .max / 10, microseconds: 0) == nil, "an overflowing timestamp is refused")
        #expect(Instant.distantFuture + .seconds(1) == .distantFuture)
        #expect(Duration.milliseconds(1.5).inMicroseconds == 1500)
        #expect(Duration.microseconds(2500).inMilliseconds == 2.5)
    }
}

@Suite struct DecimalBytesTests {
    @Test func appendedDigitsAreTheFormattedTextAndKeepWhatWasThere() {
        var text = Array("x=".utf8)
        appendDecimal(-0.004, places: 2, to: &text)
        text.append(UInt8(ascii: " "))
        appendDecimal(scaled: 1_000_050, places: 6, trailingZeros: .keep, to: &text)
        text.append(UInt8(ascii: " "))
        appendDecimal(scaled: .min, places: 0, to: &text)
        text.append(UInt8(ascii: " "))
        appendDecimal(scaled: 7, places: 3, trailingZeros: .trimAll, to: &text)
        text.append(UInt8(ascii: " "))
        appendDecimal(scaled: 1_230, places: 3, trailingZeros: .trimAll, to: &text)
        #expect(String(decoding: text, as: UTF8.self) == "x=0.0 1.000050 -9223372036854775808 0.007 1.23")
        #expect(formatDecimal(scaled: .max, places: 18) == "9.223372036854775807")
        #expect(formatDecimal(scaled: 100, places: 2, trailingZeros: .trimAll) == "1")
    }

    /// A value beyond what Int64 counts once scaled does not trap: Swift's shortest form.
    @Test func hugeValuesDoNotTrap() {
        #expect(formatDecimal(1e20, places: 1) == "1e+20")
        #expect(formatDecimal(-1e308, places: 2) == "-1e+308")
        #expect(formatDecimal(8e17, places: 1) == "800000000000000000.0")
    }
}
