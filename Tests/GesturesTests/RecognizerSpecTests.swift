import Gestures
import Testing
import TouchEvents

/// A recognizer's description, its parameters named once (``GestureParameterName``).
struct RecognizerSpecTests {
    /// A value `name` may take, unlike its default and unlike every other parameter's: one
    /// parameter read in place of another shows.
    static func value(_ name: GestureParameterName, _ rule: GestureParameter) -> Double {
        let n = Double(GestureParameterName.allCases.firstIndex(of: name)!)
        return switch rule {
        case .count(let range): Double(min(range.lowerBound + 1 + Int(n) % 3, range.upperBound))
        case .millimetres: 5 + n / 2
        case .milliseconds: 300 + n * 10
        case .velocity: 60 + n
        case .degrees(let max): max / 3 + n
        }
    }

    /// Every parameter of every kind reaches its recognizer, and reads back as it was given:
    /// none is spelt one way where it is read and another where it is made (which would leave
    /// the recognizer at its default without a word).
    @Test func everyParameterReachesItsRecognizerAndReadsBack() {
        for kind in GestureKind.allCases where kind != .custom {
            let rules = GestureParameter.byKind[kind] ?? [:]
            #expect(!rules.isEmpty, "\(kind) has parameters")
            var spec = RecognizerSpec(kind: kind)
            for (name, rule) in rules { spec.numbers[name] = Self.value(name, rule) }
            // Fewer touches than most: the pan's range stays in order.
            if kind == .pan { spec.numbers[.maxTouches] = 5 }
            let described = RecognizerSpec(describing: spec.makeRecognizer())
            #expect(described.kind == kind)
            #expect(described.numbers == spec.numbers, "\(kind)")
        }
    }

    /// The keys a description may have: the kind, what it may go with, its parameters by name
    /// (sorted), a swipe's directions, an edge pan's edges.
    @Test func theKeysOfAKindAreItsParametersByName() {
        #expect(RecognizerSpec.keys(of: .pinch) == ["kind", "simultaneous-with", "min-spread-change", "min-touches"])
        #expect(RecognizerSpec.keys(of: .edgePan) == ["kind", "simultaneous-with", "band-width", "min-distance", "touches", "edges"])
        #expect(GestureParameterName.allCases.count == Set(GestureParameter.byKind.values.flatMap(\.keys)).count,
                "every name is some kind's parameter")
    }
}
