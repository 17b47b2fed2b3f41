import DeviceQuirks
import GestureReplay
import GestureRuntime
import GestureConfiguration
import GestureProtocol
import Gestures
import Logging
import TouchEvents
import TouchRecordings

/// `gestured replay`: reads a recording and plays it through the same decoder and gesture
/// pipeline the live service uses.
public struct ReplayRunner: Sendable {
    public enum Mode: Sendable {
        /// One line per gesture event.
        case gestures
        /// One JSON object per gesture event.
        case gesturesJSON
        /// A description of the device and counts of what was decoded and recognised.
        case summary
        /// Gestures, and for every recognizer that failed or lost, why (with numbers).
        case explain
        /// The same as JSON lines.
        case explainJSON
        /// One line per decoded frame.
        case frames
        /// One JSON object per decoded frame.
        case framesJSON
    }

    public var recordingPath: String
    public var descPath: String?
    public var deviceIndex: Int?
    public var size: SurfaceSize?
    public var mode: Mode
    /// A configuration file to replay against, instead of the built-in layout.
    public var configPath: String?
    /// Says at debug level how the recording was read (format, description file, scale).
    public var logger: Logger
    /// libinput's quirks for the recorded device (nil: none), matched with `dmi` or the
    /// recording's own DMI modalias.
    public var quirks: QuirksDatabase?
    public var dmi: String?

    public init(
        recordingPath: String, descPath: String? = nil, deviceIndex: Int? = nil, size: SurfaceSize? = nil, mode: Mode,
        logger: Logger = Logger(label: "gestured.replay", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.recordingPath = recordingPath
        self.descPath = descPath
        self.deviceIndex = deviceIndex
        self.size = size
        self.mode = mode
        self.logger = logger
    }

    /// Runs the replay; returns the exit status (2 for bad input, after a `FILE:LINE:` message).
    public func run(output: inout some CommandOutput) -> Int32 {
        guard case .success(let configuration) = loadConfiguration(configPath, output: &output) else {
            return CommandStatus.badInput
        }
        do throws(RecordingError) {
            var stats = Statistics()
            var frames: [TouchFrame] = []
            var origin: Instant?
            // The configuration's actions, each noted as it would run (as the service decides
            // it), to show beside its gesture.
            let actions = ReplayActions()
            let rules = configuration.map { c in ReportingRules(configuration: c) { actions.built = $0 } }
            let result = try RecordingReplay.run(
                path: recordingPath, descPath: descPath, deviceIndex: deviceIndex, size: size,
                rules: rules, configure: actions.attach,
                onFrame: { frame in
                    stats.add(frame)
                    guard mode == .frames || mode == .framesJSON else { return }
                    frames.append(frame)
                },
                beforeDecoding: { device in origin = device.firstEventTime }, quirks: quirks, dmi: dmi,
                twin: mode == .explain || mode == .explainJSON)
            let device = result.device
            let description = device.description
            logger.debug("read recording", metadata: [
                "format": "\(result.recording.format.rawValue)", "devices": "\(result.recording.devices.count)",
                "description": "\(result.recording.descriptionPath ?? "in the file")",
            ])
            logger.debug("surface", metadata: [
                "device": "\(description.name)", "kind": "\(description.kind)", "protocol": "\(description.touchProtocol)",
                "size_mm": "\(result.surface.size)", "size_from": "\(result.surface.sizeSource.rawValue)",
                "units_per_mm": "\(formatDecimal(result.surface.xUnitsPerMillimetre, places: 3))x\(formatDecimal(result.surface.yUnitsPerMillimetre, places: 3))",
            ])
            if result.surface.sizeSource == .assumed {
                output.warn(Self.assumedSizeWarning(description, result.surface))
            }
            if device.events.isEmpty {
                output.warn("\(recordingPath): warning: the recording has no events\n")
            }
            let formatter = GestureFormatter(origin: device.firstEventTime, unit: configuration == nil ? "mm" : "")
            switch mode {
            case .frames, .framesJSON:
                // With a configuration, positions in its layout's units, as the gestures have them.
                let formatter = FrameFormatter(origin: origin ?? device.firstEventTime, mapping: configuration == nil ? nil : result.mapping)
                for frame in frames { output.write(mode == .frames ? formatter.readable(frame) : formatter.json(frame)) }
            case .gestures:
                for g in result.gestures { output.write(actions.annotated(formatter.readable(g), g)) }
            case .gesturesJSON:
                for g in result.gestures { output.write(formatter.json(g)) }
            case .explain, .explainJSON:
                // Gestures, failures and contacts left out, in the order they were reported: a
                // failure's or a contact's place is after the gestures before it; among them,
                // a contact left out comes before the failures reported after it.
                var lines: [(place: Int, order: Int, text: String)] = []
                for (i, g) in result.gestures.enumerated() {
                    lines.append((2 * i + 1, 0, mode == .explain ? actions.annotated(formatter.readable(g), g) : formatter.json(g)))
                }
                // `order` ranks it among the failures and contacts of its place.
                func add(_ time: Instant, after afterGestures: Int, order: Int, _ readable: String, json: String) {
                    let text = mode == .explain ? readableSeconds(time - device.firstEventTime) + "  \(readable)\n"
                        : "{\"time\": \(formatSeconds(time - device.firstEventTime)), \(json)}\n"
                    lines.append((2 * afterGestures, order, text))
                }
                for (i, f) in result.failures.enumerated() {
                    add(f.time, after: f.afterGestures, order: 2 * i + 1, "\(f.recognizer)@\(f.region) failed: \(f.reason)",
                        json: "\"kind\": \"\(f.kind.rawValue)\", \"state\": \"failed\", \"region\": \(jsonString(f.region)), "
                            + "\"recognizer\": \(jsonString(f.recognizer)), \"reason\": \(jsonString(f.reason.description))")
                }
                for l in result.leftOut {
                    // Contacts left out between the same two failures: in the order they were.
                    add(l.time, after: l.afterGestures, order: 2 * l.afterFailures, "contact \(l.contact) left out: \(l.reason) (\(l.why))",
                        json: "\"contact\": \(l.contact), \"state\": \"left-out\", \"reason\": \"\(l.reason)\", \"why\": \(jsonString(l.why))")
                }
                // Touches that no recognizer could take: no gesture where they landed, or no region.
                for s in result.sequences where s.report.recognizers == 0 {
                    let r = s.report
                    let readable = r.region.map { "touch sequence on `\($0)` (\(fingerCount(r.fingers))): no gesture there" }
                        ?? "touch hit no region: ignored"
                    add(r.ended, after: s.afterGestures, order: 2 * s.afterFailures + 1, readable,
                        json: "\"state\": \"no-gesture\", \"region\": \(r.region.map(jsonString) ?? "null"), \"fingers\": \(r.fingers)")
                }
                // An owned device's twin: each touch's fate, what the app beneath gets of it.
                for f in result.twinFates {
                    add(f.time, after: f.afterGestures, order: 2 * f.afterFailures, "touch \(f.contact) on the twin: \(f.from) → \(f.to) (\(f.why))",
                        json: "\"contact\": \(f.contact), \"state\": \"twin\", \"from\": \(jsonString(f.from.description)), "
                            + "\"to\": \(jsonString(f.to.description)), \"why\": \(jsonString(f.why))")
                }
                // Equal keys keep the order they were added in.
                for line in Self.stablySorted(lines, by: { ($0.place, $0.order) < ($1.place, $1.order) }) { output.write(line.text) }
                if mode == .explain, result.twinEnding != nil { output.write(Self.twinSummary(result)) }
            case .summary:
                output.write(summary(result, stats))
            }
            if mode != .summary && mode != .frames && mode != .framesJSON {
                if !result.gestures.contains(where: { $0.state == .began || $0.state == .recognized }) {
                    output.warn(Self.silence(result.sequences.map(\.report), leftOut: result.leftOut.map(\.reason)))
                } else if mode == .gestures || mode == .gesturesJSON, let quiet = Self.quietSequences(result.sequences.map(\.report)) {
                    // --explain says it line by line already.
                    output.warn(quiet)
                }
            }
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }

    /// What the app beneath an owned device gets, by the touches' last fates on the twin:
    /// `the app beneath (own: true, owned touches end with libinput's cancel): 4 touches
    /// ended by cancel, 1 never shown; every other touch whole`.
    static func twinSummary(_ result: RecordingReplay.Result) -> String {
        let touchpad = result.device.description.kind == .touchpad
        var last: [Int: TwinFilter.Fate] = [:]
        var order: [Int] = []
        for f in result.twinFates where f.contact >= 0 {
            if last[f.contact] == nil { order.append(f.contact) }
            last[f.contact] = f.to
        }
        var counts: [(String, Int)] = []
        func count(_ what: String) {
            if let i = counts.firstIndex(where: { $0.0 == what }) { counts[i].1 += 1 } else { counts.append((what, 1)) }
        }
        for contact in order {
            switch last[contact] {
            case .endedByCancel: count("ended by cancel")
            case .endedByLift: count("ended by lift")
            case .owned: count(touchpad ? "kept as palms" : "never shown")
            default: count("whole")
            }
        }
        let how = touchpad ? "owned touches stay as palms, which libinput leaves out"
            : result.twinEnding == .lift ? "owned touches end with a lift"
            : result.twinEndingAsked == .automatic ? "owned touches end as the compositor needs: shown with libinput's cancel"
            : "owned touches end with libinput's cancel"
        let told = counts.filter { $0.0 != "whole" }.map { "\($0.1) touch\($0.1 == 1 ? "" : "es") \($0.0)" }
        return "the app beneath (own: true, \(how)): "
            + (told.isEmpty ? "every touch whole" : told.joined(separator: ", ") + "; every other touch whole") + "\n"
    }

    /// Why nothing fired, for stderr: each touch sequence, grouped by where it landed, its
    /// fingers and what its recognizers said —
    /// `2 landed on `screen` with 1 finger: no gesture for 1 finger there`,
    /// `1 landed on `back` with 1 finger: tap@back failed: moved 4.1 mm > 3.0 mm`.
    /// Contacts the contact filter left out (`leftOut`: each time one was) reach no sequence:
    /// they are counted apart.
    static func silence(_ sequences: [TouchSequenceReport], leftOut: [LeftOutReason] = []) -> String {
        var counts: [(LeftOutReason, Int)] = []
        for reason in leftOut {
            if let i = counts.firstIndex(where: { $0.0 == reason }) { counts[i].1 += 1 } else { counts.append((reason, 1)) }
        }
        let setAside = counts.isEmpty ? "" : "  contacts left out: " + counts.map { "\($0.1) as \($0.0)" }.joined(separator: ", ")
            + " (--explain says why)\n"
        guard !sequences.isEmpty else {
            return "no gesture fired: " + (leftOut.isEmpty ? "no touch landed\n" : "no touch reached the recognizers\n" + setAside)
        }
        let groups = landings(sequences)
        let shown = 12
        var s = "no gesture fired: \(sequences.count) touch sequence\(sequences.count == 1 ? "" : "s")\n"
        for g in groups.prefix(shown) { s += "  \(g.count) landed \(g.key)\n" }
        if groups.count > shown {
            s += "  and \(groups.dropFirst(shown).reduce(0) { $0 + $1.count }) more (--explain shows each)\n"
        }
        return s + setAside
    }

    /// When some gesture fired, one line for stderr on the touch sequences that fired nothing,
    /// with the commonest place and reason — `2 of 5 touch sequences fired nothing; 2 landed on
    /// `screen` with 1 finger: no gesture for 1 finger there (--explain shows each)` — or nil
    /// when every sequence fired.
    static func quietSequences(_ sequences: [TouchSequenceReport]) -> String? {
        let quiet = sequences.filter { $0.gestures == 0 }
        guard !quiet.isEmpty else { return nil }
        let groups = landings(quiet).enumerated().sorted { a, b in a.element.count > b.element.count || a.element.count == b.element.count && a.offset < b.offset }
        let most = groups[0].element
        return "\(quiet.count) of \(sequences.count) touch sequence\(sequences.count == 1 ? "" : "s") fired nothing; "
            + "\(groups.count > 1 ? "the most, " : "")\(most.count) landed \(most.key) (--explain shows each)\n"
    }

    /// The touch sequences grouped by where they landed, with how many fingers, and what their
    /// recognizers said, in the order each group first came.
    static func landings(_ sequences: [TouchSequenceReport]) -> [(key: String, count: Int)] {
        var groups: [(key: String, count: Int)] = []
        for s in sequences {
            let key: String
            if let region = s.region {
                let what: String
                if s.recognizers == 0 {
                    what = "no gesture there"
                } else if s.onlyFingerCountFailed || s.failures.isEmpty {
                    what = "no gesture for \(fingerCount(s.fingers)) there"
                } else {
                    // The recognizers that could have taken this many fingers, and why they did not.
                    let failures = s.failures.filter { f in
                        switch f.reason {
                        case .tooFewTouches, .tooManyTouches: false
                        default: true
                        }
                    }
                    // Grouped by reason: a click fails every recognizer alike.
                    var byReason: [(reason: String, names: [String])] = []
                    for f in failures {
                        let reason = "\(f.reason)", name = "\(f.recognizer)@\(f.region)"
                        if let i = byReason.firstIndex(where: { $0.reason == reason }) { byReason[i].names.append(name) } else { byReason.append((reason, [name])) }
                    }
                    what = byReason.map { group in
                        let names = group.names.count <= 3
                            ? group.names.dropLast().joined(separator: ", ") + (group.names.count > 1 ? " and " : "") + group.names.last!
                            : group.names.prefix(2).joined(separator: ", ") + " and \(group.names.count - 2) more"
                        return "\(names) failed: \(group.reason)"
                    }.joined(separator: "; ")
                }
                key = "on `\(region)` with \(fingerCount(s.fingers)): \(what)"
            } else {
                key = "on no region: ignored"
            }
            if let i = groups.firstIndex(where: { $0.key == key }) { groups[i].count += 1 } else { groups.append((key, 1)) }
        }
        return groups
    }

    /// `items` in the order `less` says, equal ones in the order they came (the standard
    /// library's sort is not promised to keep that).
    static func stablySorted<T>(_ items: [T], by less: (T, T) -> Bool) -> [T] {
        items.enumerated().sorted { a, b in less(a.element, b.element) || !less(b.element, a.element) && a.offset < b.offset }.map(\.element)
    }

    static func assumedSizeWarning(_ d: DeviceDescription, _ s: TouchSurface) -> String {
        let assumption = d.kind == .touchpad
            ? "assuming a typical touchpad, \(s.size)"
            : "assuming 96 dpi (\(formatDecimal(TouchSurface.assumedUnitsPerMillimetre, places: 2)) units/mm): \(s.size)"
        return "warning: \"\(d.name)\" reports no resolution, so its size is unknown; \(assumption), "
            + "and a press may move 1.43 times as far and still tap (the size may be 30% off). "
            + "Give the real size with --size WIDTHxHEIGHT (millimetres).\n"
    }

    /// The quirks a device got, one per line after the first's `indent`, each with its section
    /// and file; or why there are none. Nothing when no quirks were read (`--quirks none`).
    static func quirksLines(_ quirks: DeviceQuirks, database: QuirksDatabase?, indent: String) -> String {
        guard let database else { return "" }
        guard !database.files.isEmpty else { return indent + "none: no quirks files (libinput's defaults)\n" }
        guard !quirks.entries.isEmpty else { return indent + "none (no section of libinput's quirks files names this device)\n" }
        let pad = String(repeating: " ", count: indent.count)
        return quirks.entries.enumerated().map { (i, e) in (i == 0 ? indent : pad) + "\(e)\n" }.joined()
    }

    struct Statistics {
        var frames = 0
        var contacts = Set<Int>()
        var maximumFingers = 0
        var cancelled = 0
        var first: Instant?
        var last = Instant.zero

        mutating func add(_ frame: TouchFrame) {
            frames += 1
            if first == nil { first = frame.time }
            last = frame.time
            maximumFingers = max(maximumFingers, frame.fingerCount)
            for c in frame.contacts {
                contacts.insert(c.id)
                if c.phase == .cancelled { cancelled += 1 }
            }
        }
    }

    private func summary(_ result: RecordingReplay.Result, _ stats: Statistics) -> String {
        let recording = result.recording
        let device = result.device
        let surface = result.surface
        let d = device.description
        let sizeNote: String
        switch surface.sizeSource {
        case .resolution: sizeNote = "from the device's resolution"
        case .given: sizeNote = "as given"
        case .assumed: sizeNote = "assumed, see the warning"
        }
        let span = stats.first.map { formatSeconds(stats.last - $0) } ?? "0.0"
        var s = "\(recording.path) (\(recording.format.rawValue))\n"
        s += "  device:   \(d.name) [\(d.kind)], \(d.touchProtocol)\n"
        s += "  surface:  \(surface.size) (\(sizeNote))\n"
        s += Self.quirksLines(result.quirks, database: quirks, indent: "  quirks:   ")
        s += "  events:   \(device.events.count)\n"
        s += "  frames:   \(stats.frames) over \(span) s\n"
        s += "  contacts: \(stats.contacts.count) (at most \(fingerCount(stats.maximumFingers)) at once"
        s += stats.cancelled > 0 ? ", \(stats.cancelled) cancelled)\n" : ")\n"
        let recognized = result.gestures.filter { $0.state == .recognized || $0.state == .began }
        var counts: [String: Int] = [:]
        for g in recognized { counts["\(g.kind)", default: 0] += 1 }
        let list = counts.keys.sorted().map { "\(counts[$0]!) \($0)" }.joined(separator: ", ")
        s += "  gestures: \(recognized.isEmpty ? "none" : list)\n"
        return s
    }
}

/// The actions of a replay's configuration as they would run: each gesture whose recognizer
/// has an action that runs for it (``ActionSpec/runs(for:)``) is shown with it
/// (`  → exec /usr/bin/kiosk-ctl menu`), in the readable output only — the JSON lines are the
/// protocol's events.
final class ReplayActions {
    /// The layout the configuration built for the replay, with its actions by recognizer.
    var built: BuiltLayout?
    /// Each gesture an action would run for, with the action in words, in the order they came.
    private var fired: [(gesture: Gesture, action: String)] = []

    /// Gives each recognizer of `pipeline`'s layout that has an action a handler that notes it.
    func attach(_ pipeline: GesturePipeline) {
        guard let built else { return }
        for region in pipeline.layout.regions {
            for recognizer in region.recognizers {
                guard let action = built.actions[ObjectIdentifier(recognizer)] else { continue }
                recognizer.addHandler { [unowned self] g in
                    if action.runs(for: g) { fired.append((g, action.summary)) }
                }
            }
        }
    }

    /// `line` (ending in a newline) with the action `gesture` runs, if any: the first not yet
    /// shown that was noted for an equal gesture.
    func annotated(_ line: String, _ gesture: Gesture) -> String {
        guard let i = fired.firstIndex(where: { $0.gesture == gesture }) else { return line }
        let action = fired.remove(at: i).action
        return String(line.dropLast()) + "  → \(action)\n"
    }
}
