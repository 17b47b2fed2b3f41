import Gestures
import Logging
import TouchEvents
import TouchInput

// Owning a device (a session's `ownership`: docs/ownership.md): the grab, the twin, what the
// twin gets of each frame, and letting the device go.
extension GestureRuntime {
    /// The session's device is owned when its session says so (``DeviceSession/ownership``):
    /// grabbed, with a twin. A device owned already keeps its twin (a reload); one that is
    /// no longer to be owned is let go. What cannot be done is logged, and the device is read
    /// without owning it.
    func setUpOwnership(_ entry: DeviceTable.Entry, _ session: DeviceSession) {
        let device = entry.device
        let metadata: Logger.Metadata = ["device": "\(device.description.name)", "node": "\(device.node)"]
        guard let ownership = session.ownership else {
            letGo(entry, at: clock.now)
            return
        }
        if let twin = entry.twin {
            twin.filter.holdBack = device.description.kind == .touchscreen ? ownership.holdBack : .zero
            twin.ending = ownership.ending
            resolveEnding(twin, device: device.description.name, at: clock.now, lookAgain: true)
            hook(twin, to: session)
            // Lifts the ended session held for its gestures were settled as it ended: they go now.
            if twin.claimedSinceWrite {
                twin.claimedSinceWrite = false
                write(twin.filter.ownershipChanged(at: clock.now), to: entry)
            }
            return
        }
        guard var filter = TwinFilter(description: device.description, holdBack: ownership.holdBack) else {
            logger.warning("cannot own the device: only a multitouch device with slots (protocol B) can be owned; it is read without owning it",
                           metadata: metadata)
            return
        }
        do throws(InputError) {
            try device.setGrabbed(true)
        } catch {
            logger.error("cannot own the device: it is read without owning it",
                         metadata: metadata.merging(["error": "\(error.message)"]) { a, _ in a })
            return
        }
        let output: any TwinOutput
        do throws(InputError) {
            output = try makeTwin(device.description, device.node)
        } catch {
            try? device.setGrabbed(false)
            logger.error("cannot own the device: no twin could be made for it; it is read without owning it",
                         metadata: metadata.merging(["error": "\(error.message)"]) { a, _ in a })
            return
        }
        // The device may have been touched before: what its slots hold, the kernel will not repeat.
        filter.seed(slotValues: device.slotValues())
        let twin = OwnedTwin(filter: filter, output: output)
        twin.ending = ownership.ending
        if logger.logLevel <= .debug {
            // Each touch's fate on the twin, as the contact filter logs its roles.
            let logger = logger, name = device.description.name
            twin.filter.onFateChange = { contact, slot, from, to, _, why in
                logger.debug("touch \(contact) on the twin: \(from) → \(to) (\(why))", metadata: ["device": "\(name)", "slot": "\(slot)"])
            }
        }
        entry.twin = twin
        resolveEnding(twin, device: device.description.name, at: clock.now, lookAgain: true)
        hook(twin, to: session)
        logger.info("touch device owned: its twin stands in for it", metadata: metadata.merging([
            "twin": "\(output.node)", "hold_back_ms": "\(formatDecimal(filter.holdBack.inMilliseconds, places: 1, trailingZeros: .trimAll))",
        ]) { a, _ in a })
    }

    /// What the session's pipeline says of touches goes to the twin's filter.
    private func hook(_ twin: OwnedTwin, to session: DeviceSession) {
        // A new pipeline names the touches again (its ids start over).
        twin.filter.forgetNames()
        // Unretained: the session's pipeline goes before the twin does (see `letGo`, `end`).
        let name = session.description.name
        session.pipeline.onTouchClaim = { [unowned(unsafe) twin, unowned(unsafe) self] claim in
            // The compositor may have started, or changed, since the device was owned.
            if case .owned = claim { self.resolveEnding(twin, device: name, at: self.clock.now, lookAgain: false) }
            if twin.filter.hear(claim) { twin.claimedSinceWrite = true }
        }
    }

    /// The twin's ``TwinFilter/ending`` from its ``OwnedTwin/ending``: `automatic` looks at the
    /// running compositor (``findCompositor``) when `lookAgain`, or when it last looked
    /// ``compositorRecheck`` ago or more; a change is logged with its reason.
    func resolveEnding(_ twin: OwnedTwin, device: String, at now: Instant, lookAgain: Bool) {
        let resolved: OwnedTouchEnding, why: String, compositor: RunningCompositor?
        switch twin.ending {
        case .cancel, .lift:
            resolved = twin.ending
            why = "end-owned-touches: \(twin.ending.rawValue)"
            compositor = nil
        case .automatic:
            if !lookAgain, let last = twin.compositorLookedAt, now < last + Self.compositorRecheck { return }
            twin.compositorLookedAt = now
            compositor = findCompositor()
            (resolved, why) = RunningCompositor.ending(name: compositor?.name, version: compositor?.version)
        }
        guard resolved != twin.filter.ending || lookAgain else { return }
        twin.filter.ending = resolved
        logger.info(resolved == .lift ? "owned touches the apps had end with a lift" : "owned touches the apps had end with libinput's cancel",
                    metadata: ["device": "\(device)", "why": "\(why)", "compositor": "\(compositor?.description ?? "none")"])
    }

    /// The compositor gets the device back: every touch the twin has is cancelled there, the
    /// twin is destroyed — once the compositor has had time to read that
    /// (``GestureRuntime/twinLinger``) — and the grab let go.
    func letGo(_ entry: DeviceTable.Entry, at time: Instant) {
        guard let twin = entry.twin else { return }
        entry.session?.pipeline.onTouchClaim = nil
        let ending = twin.filter.cancelAll(at: time)
        if !ending.isEmpty, (try? twin.output.write(ending)) != nil {
            lingeringTwins.append((twin.output, time + Self.twinLinger))
        }
        entry.twin = nil
        try? entry.device.setGrabbed(false)
        logger.info("touch device no longer owned: the compositor reads it again",
                    metadata: ["device": "\(entry.device.description.name)", "node": "\(entry.device.node)"])
    }

    /// Writes `events` to the entry's twin; a twin that cannot be written to is let go (the
    /// compositor reads the device itself again).
    func write(_ events: [InputEvent], to entry: DeviceTable.Entry) {
        guard !events.isEmpty, let twin = entry.twin else { return }
        do throws(InputError) {
            try twin.output.write(events)
        } catch {
            logger.error("cannot write to an owned device's twin: letting the device go",
                         metadata: ["node": "\(entry.device.node)", "error": "\(error.message)"])
            entry.twin = nil
            entry.session?.pipeline.onTouchClaim = nil
            try? entry.device.setGrabbed(false)
        }
    }
}
