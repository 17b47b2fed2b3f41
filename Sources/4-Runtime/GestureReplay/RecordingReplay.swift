import DeviceQuirks
import GestureRuntime
import Gestures
import TouchEvents
import TouchRecordings

/// Replays a recording through a `DeviceSession` — the decoder and gesture pipeline the
/// service uses live — and returns the ordered gesture log.
public enum RecordingReplay {
    /// What a replay produced.
    public struct Result {
        public var recording: Recording
        public var device: RecordedDevice
        public var surface: TouchSurface
        /// The layout played against, and how the surface mapped onto it.
        public var layout: Layout
        public var mapping: SurfaceMapping
        public var gestures: [Gesture]
        /// Every recognizer that failed: when, which (`tap(1 tap, 1 touch)`), where, why, and
        /// how many gestures had been emitted then (its place among them).
        public var failures: [Failure]
        /// Every contact the contact filter left out: when, which, why, and its place among
        /// the gestures.
        public var leftOut: [LeftOut]
        /// What looks wrong in how the device meets the layout (a layout much larger than the
        /// surface maps onto); a live runtime logs the same at the device's start.
        public var warnings: [String]
        /// What libinput's quirks said about the device (empty without `quirks`).
        public var quirks: DeviceQuirks
        /// Every touch sequence, in the order each was over: where it landed, its fingers, its
        /// gestures and failures; and each touch that hit no region (`region` nil).
        public var sequences: [SequenceEnd]
        /// With `twin`, for a device its rules own: each touch's fate on the twin, in order,
        /// and the twin's kernel events (what the compositor, then the app, gets).
        public var twinFates: [TwinFate] = []
        public var twinEvents: [InputEvent] = []
        /// The ending owned touches had on the twin (`TouchOwnership.ending`; `auto` is shown
        /// as libinput's cancel: a replay looks at no compositor), and the one the device rule
        /// asked for. nil: not owned, or no twin asked.
        public var twinEnding: OwnedTouchEnding?
        public var twinEndingAsked: OwnedTouchEnding?
    }

    /// A touch sequence that was over (`GesturePipeline.sequenceObserver`), with its place among
    /// the gestures and failures.
    public struct SequenceEnd: Sendable {
        public var report: TouchSequenceReport
        /// How many gestures, and failures, had been reported when it was over.
        public var afterGestures: Int
        public var afterFailures: Int
    }

    /// A contact left out of the gestures (`GesturePipeline.leftOutObserver`).
    public struct LeftOut: Sendable {
        public var time: Instant
        public var contact: Int
        public var reason: LeftOutReason
        /// Why, with numbers: "pressure 212 ≥ 180".
        public var why: String
        /// How many gestures, and how many failures, had been reported then (its place among them).
        public var afterGestures: Int
        public var afterFailures: Int
    }

    /// A touch's change of fate on an owned device's twin (``run(path:descPath:deviceIndex:size:layout:screen:rules:configure:onFrame:beforeDecoding:quirks:dmi:twin:)``
    /// with `twin`): what the app beneath gets of it.
    public struct TwinFate: Sendable {
        public var time: Instant
        /// The pipeline's name for the touch (-1: not named yet), and its slot on the device.
        public var contact: Int
        public var slot: Int
        public var from: TwinFilter.Fate
        public var to: TwinFilter.Fate
        public var why: String
        /// How many gestures and failures came before it.
        public var afterGestures: Int
        public var afterFailures: Int
    }

    public struct Failure: Sendable {
        public var time: Instant
        public var recognizer: String
        public var kind: GestureKind
        public var region: String
        public var reason: FailureReason
        public var afterGestures: Int
    }

    /// Replays `path` (libinput record or evemu) against `layout`, or under device `rules` (a
    /// configuration's: its device rule, mapping and region tree), or else against the
    /// built-in layout (`Layout.standard(size:touchscreen:)`) sized to the device. With a
    /// `screen` (a layout in code, as `GestureRuntime(layout:screen:)` has it), a touchscreen
    /// maps onto it. `size` overrides any size the device or configuration gives. `configure`
    /// may attach handlers to the pipeline's layout before anything is played; `onFrame` sees
    /// every decoded frame, before the pipeline. With `quirks` (libinput's, as
    /// `QuirksDatabase.load()` reads them), the device gets what they say about it, matched on
    /// its name, ids and kind and on `dmi` or else the DMI modalias the recording carries;
    /// without, none (a replay in a test does not depend on the machine's files).
    public static func run(
        path: String, descPath: String? = nil, deviceIndex: Int? = nil, size: SurfaceSize? = nil,
        layout: Layout? = nil, screen: Screen? = nil, rules: (any DeviceRules)? = nil, configure: ((GesturePipeline) -> Void)? = nil,
        onFrame: ((TouchFrame) -> Void)? = nil, beforeDecoding: ((RecordedDevice) -> Void)? = nil,
        quirks: QuirksDatabase? = nil, dmi: String? = nil, twin: Bool = false
    ) throws(RecordingError) -> Result {
        let (recording, device, session) = try prepare(path: path, descPath: descPath, deviceIndex: deviceIndex, size: size,
                                                       layout: layout, screen: screen, rules: rules,
                                                       beforeDecoding: beforeDecoding, quirks: quirks, dmi: dmi)
        let pipeline = session.pipeline
        var gestures: [Gesture] = []
        pipeline.observer = { gestures.append($0) }
        var failures: [Failure] = []
        pipeline.failureObserver = { r, reason, time in
            failures.append(Failure(time: time, recognizer: r.name, kind: r.kind, region: r.region?.id ?? "",
                                    reason: reason, afterGestures: gestures.count))
        }
        var leftOut: [LeftOut] = []
        pipeline.leftOutObserver = { contact, reason, why, time in
            leftOut.append(LeftOut(time: time, contact: contact, reason: reason, why: why, afterGestures: gestures.count,
                                   afterFailures: failures.count))
        }
        var sequences: [SequenceEnd] = []
        pipeline.sequenceObserver = { sequences.append(SequenceEnd(report: $0, afterGestures: gestures.count, afterFailures: failures.count)) }
        session.onFrame = onFrame
        configure?(pipeline)
        // An owned device's twin, as the runtime runs it: what the app beneath would get.
        var filter: TwinFilter?
        var fates: [TwinFate] = []
        var twinEvents: [InputEvent] = []
        if twin, let ownership = session.ownership, var made = TwinFilter(description: device.description, holdBack: ownership.holdBack) {
            made.ending = ownership.ending == .lift ? .lift : .cancel
            made.onFateChange = { contact, slot, from, to, time, why in
                // The pipeline's word at a deadline comes dated by the latest event: it is no
                // earlier than the gestures and failures reported before it.
                let latest = max(time, gestures.last?.time ?? time, failures.last?.time ?? time)
                fates.append(TwinFate(time: latest, contact: contact, slot: slot, from: from, to: to, why: why,
                                      afterGestures: gestures.count, afterFailures: failures.count))
            }
            filter = made
            pipeline.onTouchClaim = { claim in filter?.hear(claim) }
        }
        try device.forEachEvent(path: path) { event throws(DecodeError) in
            guard filter != nil else { return try session.process(event) }
            if let due = filter?.nextDeadline, due <= event.time, let out = filter?.deadlinePassed(due) { twinEvents += out }
            filter?.add(event)
            try session.process(event)
            if event.isReport, let out = filter?.endFrame() { twinEvents += out }
        }
        session.finish()
        if filter != nil {
            // Whatever is left: what the pipeline decided at its last deadlines, held-back
            // touches when their time is up; then the recording's end is the device going away.
            let last = max(device.events.last?.time ?? .zero, gestures.last?.time ?? .zero, failures.last?.time ?? .zero)
            if let out = filter?.ownershipChanged(at: last) { twinEvents += out }
            while let due = filter?.nextDeadline, let out = filter?.deadlinePassed(due) { twinEvents += out }
            let end = max(last, filter?.nextDeadline ?? last)
            if let out = filter?.cancelAll(at: end) { twinEvents += out }
        }
        var result = Result(recording: recording, device: device, surface: session.surface, layout: session.layout,
                            mapping: session.mapping, gestures: gestures, failures: failures, leftOut: leftOut,
                            warnings: session.warnings, quirks: session.quirks, sequences: sequences)
        if let filter {
            result.twinFates = fates
            result.twinEvents = twinEvents
            result.twinEnding = filter.ending
            result.twinEndingAsked = session.ownership?.ending
        }
        return result
    }

    /// Loads `path` and makes the session a replay plays it through (as ``run(path:descPath:deviceIndex:size:layout:screen:rules:configure:onFrame:beforeDecoding:quirks:dmi:twin:)``
    /// does, for a player that feeds the events itself: `gestured view`). Throws a `FILE:LINE`
    /// error for a recording that cannot be read, or has no touch device the layout can use.
    public static func prepare(
        path: String, descPath: String? = nil, deviceIndex: Int? = nil, size: SurfaceSize? = nil,
        layout: Layout? = nil, screen: Screen? = nil, rules: (any DeviceRules)? = nil,
        beforeDecoding: ((RecordedDevice) -> Void)? = nil, quirks: QuirksDatabase? = nil, dmi: String? = nil
    ) throws(RecordingError) -> (Recording, RecordedDevice, DeviceSession) {
        let recording = try Recording.load(path: path, descPath: descPath)
        let device = try recording.device(deviceIndex)
        beforeDecoding?(device)
        guard device.description.isTouchDevice else {
            throw RecordingError(path: path, line: 0, message:
                "\"\(device.description.name)\" is not a touchscreen or touchpad; choose a touch device with --device N")
        }
        let session: DeviceSession
        do throws(DeviceSession.SetupError) {
            let matched = quirks?.quirks(for: QuirksDevice(description: device.description, dmi: dmi ?? recording.dmi)) ?? DeviceQuirks()
            session = try DeviceSession(device: device.description, node: device.node, rules: rules, layout: layout,
                                        screen: screen, size: size, quirks: matched)
        } catch .noRule {
            let d = device.description
            throw RecordingError(path: rules?.origin ?? path, line: 0, message:
                "no device rule matches \"\(d.name)\" [\(d.kind)\(device.node.map { ", " + $0 } ?? "")]: the configuration would not use this device")
        } catch {
            throw RecordingError(path: path, line: 0, message: "\"\(device.description.name)\" has no position axes")
        }
        return (recording, device, session)
    }
}
