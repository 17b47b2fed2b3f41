// What the abuse run and the client-regions benchmark both measure with.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Monotonic seconds.
func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Two decimals.
func format2(_ v: Double) -> String { String(format: "%.2f", v) }

/// The value `p` (0…1) of `values` are at or below (9999 when there are none).
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 9999 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
