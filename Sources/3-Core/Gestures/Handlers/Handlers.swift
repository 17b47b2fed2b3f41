import Logging
import Synchronization
import TouchEvents

/// A handler: of a recognizer (`Value` is ``Gesture``) or of a region's presses (``Press``).
/// It is released when its token is cancelled or its owner goes away, and is never called
/// after that.
final class HandlerEntry<Value> {
    let id: Int
    let hasOwner: Bool
    weak var owner: AnyObject?
    /// Nil once released.
    var body: ((AnyObject?, Value) throws -> Void)?
    /// Delay before the call (zero: at once).
    let delay: Duration

    init(id: Int, owner: AnyObject?, delay: Duration = .zero, body: @escaping (AnyObject?, Value) throws -> Void) {
        self.id = id
        hasOwner = owner != nil
        self.owner = owner
        self.delay = delay
        self.body = body
    }

    /// False once cancelled or once its owner was deallocated.
    var isLive: Bool { body != nil && (!hasOwner || owner != nil) }

    func release() { body = nil }

    /// Releases and removes the entries of `list` whose owner is gone; false when none was.
    static func removeReleased(from list: inout [HandlerEntry]) -> Bool {
        guard list.contains(where: { !$0.isLive }) else { return false }
        for entry in list where !entry.isLive { entry.release() }
        list.removeAll { $0.body == nil }
        return true
    }
}

/// Returned by every `on…` method: `cancel()` removes the handler (and the recognizer the
/// method created). Dropping the token does not cancel; the owner's lifetime or `cancel()` does.
/// The token keeps its recognizer until cancelled (a press token keeps nothing).
public final class GestureToken {
    private var recognizer: GestureRecognizer?
    private weak var pressRegion: Region?
    private let entryID: Int

    init(recognizer: GestureRecognizer, entryID: Int) {
        self.recognizer = recognizer
        self.entryID = entryID
    }

    init(region: Region, entryID: Int) {
        pressRegion = region
        self.entryID = entryID
    }

    /// The recognizer the handler is attached to, to configure it further (`require(toFail:)`);
    /// nil for a press handler.
    public var gestureRecognizer: GestureRecognizer? { recognizer }

    /// True until cancelled or until the owner is gone.
    public var isActive: Bool {
        if let recognizer { return recognizer.handlers.first { $0.id == entryID }?.isLive ?? false }
        return pressRegion?.pressHandlers.first { $0.id == entryID }?.isLive ?? false
    }

    /// Removes the handler; a pending delayed call is dropped too.
    public func cancel() {
        if let recognizer {
            recognizer.removeHandler(entryID)
            self.recognizer = nil
        }
        pressRegion?.removePressHandler(entryID)
        pressRegion = nil
    }
}

extension GestureRecognizer {
    private static let ids = Atomic<Int>(0)

    /// A new handler id, unique in the process.
    static func nextHandlerID() -> Int { ids.wrappingAdd(1, ordering: .relaxed).newValue }

    /// Calls `handler` with every event of this recognizer (UIKit's `addTarget`, as a
    /// closure), `delay` after it if given. The token's `cancel()` removes it.
    @discardableResult
    public func addHandler(delay: Duration = .zero, _ handler: @escaping (Gesture) throws -> Void) -> GestureToken {
        attachHandler(owner: nil, delay: delay) { try handler($1) }
    }

    /// Like ``addHandler(delay:_:)``, living only as long as `owner`, which it receives.
    @discardableResult
    public func addHandler<Owner: AnyObject>(owner: Owner, delay: Duration = .zero,
                                             _ handler: @escaping (Owner, Gesture) throws -> Void) -> GestureToken {
        attachHandler(owner: owner, delay: delay) { if let o = $0 as? Owner { try handler(o, $1) } }
    }

    /// Attaches a handler; with an owner, it lives only as long as the owner.
    func attachHandler(owner: AnyObject?, delay: Duration, _ body: @escaping (AnyObject?, Gesture) throws -> Void) -> GestureToken {
        let id = Self.nextHandlerID()
        let entry = HandlerEntry<Gesture>(id: id, owner: owner, delay: max(.zero, delay), body: body)
        handlers.append(entry)
        if owner != nil { region?.layout?.ownerBoundHandlersChanged() }
        return GestureToken(recognizer: self, entryID: entry.id)
    }

    func removeHandler(_ id: Int) {
        if let i = handlers.firstIndex(where: { $0.id == id }) {
            handlers[i].release()
            handlers.remove(at: i)
        }
        if ownedByHandlers && handlers.isEmpty { region?.remove(self) }
    }

    /// Drops handlers whose owner is gone; removes the recognizer if it was theirs alone.
    /// Called when a sequence starts and, through the layout, on every frame: no timer, no
    /// registry.
    func sweepReleasedHandlers() {
        guard HandlerEntry.removeReleased(from: &handlers) else { return }
        if ownedByHandlers && handlers.isEmpty { region?.remove(self) }
    }
}
