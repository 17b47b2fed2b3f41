import TouchEvents

/// Press feedback for a region (UIKit's touch-down, touch-up-inside and touch-cancel control
/// events): a button shows its pressed state from `down` until `up` or `cancelled`, whichever
/// gesture — if any — the touches turn out to be. Presses take no part in the arena: they
/// never compete with the region's recognizers.
public struct Press: Sendable, Equatable {
    public enum Phase: String, Sendable, Hashable, CustomStringConvertible {
        /// The first finger of a touch sequence landed on the region (or a region inside it).
        case down
        /// Every finger of the sequence lifted.
        case up
        /// The sequence was cancelled: a palm, dropped events, the device or the region went.
        case cancelled
        public var description: String { rawValue }
    }

    public var phase: Phase
    /// The region whose handler receives it.
    public var region: String
    /// Where the touches are (their centroid), in layout units.
    public var location: Point
    /// ``location`` in the region's own coordinates.
    public var localLocation: Point
    /// For `up`: true when the fingers lifted inside the region's hit area (a button fires on
    /// an `up` inside, as UIKit's touch-up-inside).
    public var isInside: Bool
    public var time: Instant
    /// The region, while it exists (read it where the pipeline runs).
    public var target: Region? { targetReference?.region }
    var targetReference: RegionReference?
}

extension Region {
    /// Calls `handler` when a touch sequence presses the region (`down`), and when it ends
    /// (`up`, with whether it lifted inside) or is cancelled. The token's `cancel()` removes it.
    @discardableResult
    public func onPress(_ handler: @escaping (Press) throws -> Void) -> GestureToken {
        attachPress(owner: nil) { try handler($1) }
    }

    /// Like ``onPress(_:)``, living only as long as `owner`, which it receives.
    @discardableResult
    public func onPress<Owner: AnyObject>(owner: Owner, _ handler: @escaping (Owner, Press) throws -> Void) -> GestureToken {
        attachPress(owner: owner) { if let o = $0 as? Owner { try handler(o, $1) } }
    }

    private func attachPress(owner: AnyObject?, _ body: @escaping (AnyObject?, Press) throws -> Void) -> GestureToken {
        let entry = HandlerEntry<Press>(id: GestureRecognizer.nextHandlerID(), owner: owner, body: body)
        pressHandlers.append(entry)
        layout?.recognizersChanged(ownerBound: owner != nil)
        return GestureToken(region: self, entryID: entry.id)
    }

    func removePressHandler(_ id: Int) {
        guard let i = pressHandlers.firstIndex(where: { $0.id == id }) else { return }
        pressHandlers[i].release()
        pressHandlers.remove(at: i)
    }
}
