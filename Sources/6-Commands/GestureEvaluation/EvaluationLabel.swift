/// What a labelled recording should be recognised as: one record of a labels file (the ChromiumOS
/// corpus's `labels.json` format; unknown keys are ignored, so richer records load too).
///
/// ```json
/// {"file": "link/two_finger_tracking.left_to_right.slow-link-....evemu", "device": "link",
///  "label": "pan", "touches": 2, "repetitions": 1, "direction": "right", "flags": []}
/// ```
public struct EvaluationLabel: Decodable, Sendable, Equatable {
    /// The recording, relative to the labels file's folder.
    public var file: String
    /// The device (board) it was recorded on, for the per-device table.
    public var device: String
    /// `tap`, `multi-tap`, `long-press`, `pan`, `swipe`, `pinch-in`, `pinch-out`,
    /// `negative-click` (physical clicks: no gesture), `negative-palm` (a palm or resting thumb:
    /// no gesture); other labels (`tap-and-drag`, `drumroll`, `other`) are not evaluated.
    public var label: String
    /// Fingers of the gesture, when the label says.
    public var touches: Int?
    /// How many times it was done (taps of a tap file), when known.
    public var repetitions: Int?
    /// `left` `right` `up` `down`, or two of them joined (`up-right`), for pans and swipes.
    public var direction: String?
    /// Doubts about the label (the corpus marks recordings whose data disagree with their
    /// name): a flagged recording is not evaluated.
    public var flags: [String]?
    /// Gestures the recording may also start, as `kind/touches` (`pan/1`): what the prompt had
    /// done besides the labelled gesture (a one-finger move before a scroll). They are not
    /// false gestures.
    public var also: [String]?

    public init(file: String, device: String, label: String, touches: Int? = nil, repetitions: Int? = nil,
                direction: String? = nil, flags: [String]? = nil, also: [String]? = nil) {
        self.file = file
        self.device = device
        self.label = label
        self.touches = touches
        self.repetitions = repetitions
        self.direction = direction
        self.flags = flags
        self.also = also
    }

    private enum CodingKeys: String, CodingKey {
        case file, device, label, touches, repetitions, direction, flags, also
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(file: try c.decode(String.self, forKey: .file), device: try c.decode(String.self, forKey: .device),
                  label: try c.decode(String.self, forKey: .label), touches: try c.decodeIfPresent(Int.self, forKey: .touches),
                  repetitions: try c.decodeIfPresent(Int.self, forKey: .repetitions),
                  direction: try c.decodeIfPresent(String.self, forKey: .direction),
                  flags: try c.decodeIfPresent([String].self, forKey: .flags), also: try c.decodeIfPresent([String].self, forKey: .also))
        // `kind/touches`, as the evaluator names classes: a kind, a slash, a count of fingers.
        for entry in also ?? [] {
            let parts = entry.split(separator: "/")
            guard parts.count == 2, !parts[0].isEmpty, let n = Int(parts[1]), n > 0 else {
                throw DecodingError.dataCorruptedError(forKey: .also, in: c, debugDescription: "\(entry) is not kind/touches")
            }
        }
    }

    /// The labels the evaluation judges.
    public static let evaluatedLabels: Set<String> = [
        "tap", "multi-tap", "long-press", "pan", "swipe", "pinch-in", "pinch-out", "negative-click", "negative-palm",
    ]

    /// Why the recording is not evaluated, or nil when it is.
    public var skipReason: String? {
        if !Self.evaluatedLabels.contains(label) { return "label \(label) is not evaluated" }
        if let flags, !flags.isEmpty { return "flagged: \(flags.joined(separator: ", "))" }
        return nil
    }

    /// The row of the confusion matrix: `pan/2`, `tap/1`, `negative-click`.
    public var classLabel: String {
        if label.hasPrefix("negative-") { return label }
        return touches.map { "\(label)/\($0)" } ?? label
    }
}
