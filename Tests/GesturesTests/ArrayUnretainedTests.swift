@testable import Gestures
import Testing

/// `forEachUnretained`, the arena's walk without reference counting: every element, in order,
/// alive for its call, whatever the call does to the stored array it was copied from.
@Suite("The arena's walk without reference counting")
struct ArrayUnretainedTests {
    final class Member {
        let name: String
        init(_ name: String) { self.name = name }
    }

    final class Holder {
        var members: [Member] = [Member("a"), Member("b"), Member("c")]
    }

    @Test func everyElementInOrderWhileTheStoredArrayIsEmptied() {
        let holder = Holder()
        weak let first = holder.members[0]
        var seen: [String] = []
        do {
            // As the arena does: a local copy holds the storage for the walk.
            let walk = holder.members
            walk.forEachUnretained { member in
                // The call changes the stored array: removes every member, adds one.
                holder.members.removeAll()
                holder.members.append(Member("new"))
                seen.append(member.name)
            }
        }
        #expect(seen == ["a", "b", "c"])
        #expect(holder.members.map(\.name) == ["new"])
        #expect(first == nil, "the walk's copy held the members only while it lasted")
    }

    @Test func anEmptyArrayCallsNothing() {
        var calls = 0
        [Member]().forEachUnretained { _ in calls += 1 }
        #expect(calls == 0)
    }
}
