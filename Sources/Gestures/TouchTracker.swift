import Foundation
import TouchEvents

/// The touches of one touch sequence and what recognizers read from them, computed once
/// per frame: counts, centroid, and the frame's movement, spread change and rotation over
/// the touches that were down both before and after it (so a finger landing or lifting
/// never looks like a jump).
///
/// Positions are millimetres on the touch surface.
public final class TouchTracker {
    struct Tracked {
        var id: Int
        var start: Point
        var previous: Point
        var current: Point
        /// Down before this frame and after it (or ending in it).
        var persisting: Bool
        var finished: Bool
    }

    private(set) var contacts: [Tracked] = []

    /// Time of the last frame (µs).
    public private(set) var time: Int64 = 0
    /// Fingers down: the active contacts, or the device's `BTN_TOOL_*` count while any
    /// contact is down if that is larger (a two-slot touchpad's third finger).
    public private(set) var touches = 0
    /// ``touches`` before the last frame: the fingers a gesture ended with when they lifted.
    public private(set) var previousTouches = 0
    /// Centroid of the touches down (the last one while none is).
    public private(set) var centroid = Point.zero
    /// How far the touches moved in this frame (mean motion of the persisting ones).
    public private(set) var centroidDelta = Point.zero
    /// Mean distance of the touches from their centroid, mm.
    public private(set) var spread = 0.0
    /// This frame's change of the persisting touches' spread: as a factor, and in mm.
    public private(set) var spreadFactor = 1.0
    public private(set) var spreadDelta = 0.0
    /// This frame's rotation of the persisting touches about their centroid, degrees,
    /// clockwise positive (y down).
    public private(set) var rotationDelta = 0.0
    /// Contacts that began / ended in this frame; whether one was cancelled.
    public private(set) var beganCount = 0
    public private(set) var endedCount = 0
    public private(set) var cancelled = false

    /// The current press: from the first finger down to the last finger up.
    public private(set) var pressStartTime: Int64 = 0
    public private(set) var pressMaxTouches = 0
    /// The farthest any contact of the press moved from where it landed, mm.
    public private(set) var pressMaxMovement = 0.0
    /// Where the press's first touch landed.
    public private(set) var pressStartLocation = Point.zero
    /// Counts presses since the tracker was reset (1 for the first).
    public private(set) var pressIndex = 0

    public init() {
        contacts.reserveCapacity(16)
    }

    /// True while a finger is down.
    public var isDown: Bool { touches > 0 }

    /// Forgets everything (a new sequence starts).
    public func reset() {
        contacts.removeAll(keepingCapacity: true)
        touches = 0
        previousTouches = 0
        pressIndex = 0
        pressMaxTouches = 0
        pressMaxMovement = 0
        centroidDelta = .zero
        spreadFactor = 1
        spreadDelta = 0
        rotationDelta = 0
    }

    /// The position where the touch `id` landed, if it is down.
    public func startPosition(of id: Int) -> Point? { contacts.first { $0.id == id }?.start }

    func update(_ frame: TouchFrame) {
        time = frame.time
        beganCount = 0
        endedCount = 0
        cancelled = false
        let wasDown = touches > 0
        previousTouches = touches
        for i in contacts.indices {
            contacts[i].previous = contacts[i].current
            contacts[i].persisting = false
        }
        for c in frame.contacts {
            let p = Point(x: c.x, y: c.y)
            let index = contacts.firstIndex { $0.id == c.id }
            switch c.phase {
            case .began:
                contacts.append(Tracked(id: c.id, start: p, previous: p, current: p, persisting: false, finished: false))
                beganCount += 1
            case .moved, .stationary:
                if let index {
                    contacts[index].current = p
                    contacts[index].persisting = true
                } else {
                    // Down before this sequence started listening: it joins from here.
                    contacts.append(Tracked(id: c.id, start: p, previous: p, current: p, persisting: false, finished: false))
                }
            case .ended:
                if let index {
                    contacts[index].current = p
                    contacts[index].persisting = true
                    contacts[index].finished = true
                    endedCount += 1
                }
            case .cancelled:
                if let index { contacts[index].finished = true }
                cancelled = true
            }
        }
        computeMotion()
        let active = contacts.reduce(0) { $0 + ($1.finished ? 0 : 1) }
        // The centroid of the fingers still down; when the last ones lift, of where they lifted.
        let lifting = active == 0
        var n = 0.0
        var sum = Point.zero
        for c in contacts where c.finished == lifting {
            sum += c.current
            n += 1
        }
        if n > 0 {
            centroid = sum * (1 / n)
            var distance = 0.0
            for c in contacts where c.finished == lifting { distance += (c.current - centroid).length }
            spread = distance / n
        }
        if contacts.contains(where: \.finished) { contacts.removeAll(where: \.finished) }
        touches = active == 0 ? 0 : max(active, frame.toolFingerCount)
        if touches > 0 {
            if !wasDown {
                pressIndex += 1
                pressStartTime = time
                pressMaxTouches = touches
                pressMaxMovement = 0
                pressStartLocation = centroid
            }
            pressMaxTouches = max(pressMaxTouches, touches)
            for c in contacts { pressMaxMovement = max(pressMaxMovement, (c.current - c.start).length) }
        }
    }

    /// Movement, spread change and rotation of the touches that persisted through the frame.
    private func computeMotion() {
        var n = 0.0
        var before = Point.zero
        var after = Point.zero
        for c in contacts where c.persisting {
            n += 1
            before += c.previous
            after += c.current
        }
        centroidDelta = .zero
        spreadFactor = 1
        spreadDelta = 0
        rotationDelta = 0
        guard n > 0 else { return }
        before = before * (1 / n)
        after = after * (1 / n)
        centroidDelta = after - before
        guard n >= 2 else { return }
        var spreadBefore = 0.0
        var spreadAfter = 0.0
        var turn = 0.0
        var turning = 0.0
        for c in contacts where c.persisting {
            let a = c.previous - before
            let b = c.current - after
            spreadBefore += a.length
            spreadAfter += b.length
            // A touch very near the centroid has no meaningful angle.
            if a.length > 0.5 && b.length > 0.5 {
                turn += normalizedDegrees((atan2(b.y, b.x) - atan2(a.y, a.x)) * 180 / .pi)
                turning += 1
            }
        }
        spreadBefore /= n
        spreadAfter /= n
        spreadDelta = spreadAfter - spreadBefore
        spreadFactor = spreadBefore > 0.01 ? spreadAfter / spreadBefore : 1
        rotationDelta = turning > 0 ? turn / turning : 0
    }
}
