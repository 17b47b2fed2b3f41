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
        quirks: QuirksDatabase? = nil, dmi: String? = nil
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
        try device.forEachEvent(path: path) { event throws(DecodeError) in try session.process(event) }
        session.finish()
        return Result(recording: recording, device: device, surface: session.surface, layout: session.layout,
                      mapping: session.mapping, gestures: gestures, failures: failures, leftOut: leftOut,
                      warnings: session.warnings, quirks: session.quirks, sequences: sequences)
    }

    /// Loads `path` and makes the session a replay plays it through (as ``run(path:descPath:deviceIndex:size:layout:screen:rules:configure:onFrame:beforeDecoding:quirks:dmi:)``
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
