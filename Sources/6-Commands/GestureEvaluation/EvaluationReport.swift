import GestureProtocol
import Gestures
import TouchEvents

/// The judgements of a labelled corpus, added up: per class (the label and its fingers), per
/// device, a confusion matrix, and the swipes' decision times.
public struct EvaluationReport: Sendable {
    /// One judged recording.
    public struct Entry: Sendable {
        public var label: EvaluationLabel
        public var judgement: Judgement
        /// The recording's touch surface (`102.0 x 68.0 mm`), when known: a labels file may
        /// give one device name to recordings of different pads (a board made with two).
        public var surface: String?
    }

    /// One row of the class table.
    public struct ClassFigures: Sendable, Equatable {
        public var files = 0
        public var right = 0
        /// Recordings recognized as this class (``Judgement/recognized``: the first gesture, or
        /// the swipe that follows a first pan; for negatives: no gesture at all).
        public var recognizedAs = 0
        /// Of those, the ones labelled this class and right.
        public var recognizedRight = 0
        public var falseGestures = 0
        /// Right / files.
        public var recall: Double { files == 0 ? 0 : Double(right) / Double(files) }
        /// Right among those recognized as this class.
        public var precision: Double { recognizedAs == 0 ? 0 : Double(recognizedRight) / Double(recognizedAs) }
    }

    public private(set) var entries: [Entry] = []
    /// Recordings not evaluated, with why.
    public private(set) var skipped: [(file: String, why: String)] = []

    public init() {}

    public mutating func add(_ label: EvaluationLabel, _ judgement: Judgement, surface: String? = nil) {
        entries.append(Entry(label: label, judgement: judgement, surface: surface))
    }

    public mutating func skip(_ file: String, why: String) {
        skipped.append((file, why))
    }

    public var right: Int { entries.filter(\.judgement.right).count }

    /// Per class, in the order classes first appear.
    public var classes: [(name: String, figures: ClassFigures)] {
        var order: [String] = []
        var figures: [String: ClassFigures] = [:]
        for e in entries {
            let name = e.label.classLabel
            if figures[name] == nil { order.append(name) }
            figures[name, default: ClassFigures()].files += 1
            if e.judgement.right { figures[name, default: ClassFigures()].right += 1 }
            figures[name, default: ClassFigures()].falseGestures += e.judgement.falseGestures.count
        }
        for e in entries {
            for name in order where Self.column(of: name) == e.judgement.recognized {
                figures[name]?.recognizedAs += 1
                if e.judgement.right && e.label.classLabel == name { figures[name]?.recognizedRight += 1 }
            }
        }
        return order.sorted().map { ($0, figures[$0]!) }
    }

    /// Per device: right and evaluated, and — where its recordings were made on touch surfaces
    /// of more than one size — the same per surface (otherwise empty).
    public var devices: [(name: String, right: Int, files: Int, surfaces: [(size: String, right: Int, files: Int)])] {
        var table: [String: (Int, Int)] = [:]
        var bySurface: [String: [String: (Int, Int)]] = [:]
        for e in entries {
            table[e.label.device, default: (0, 0)].0 += e.judgement.right ? 1 : 0
            table[e.label.device, default: (0, 0)].1 += 1
            if let surface = e.surface {
                bySurface[e.label.device, default: [:]][surface, default: (0, 0)].0 += e.judgement.right ? 1 : 0
                bySurface[e.label.device, default: [:]][surface, default: (0, 0)].1 += 1
            }
        }
        return table.keys.sorted().map { name in
            let surfaces = bySurface[name] ?? [:]
            let split = surfaces.count > 1 ? surfaces.keys.sorted().map { ($0, surfaces[$0]!.0, surfaces[$0]!.1) } : []
            return (name, table[name]!.0, table[name]!.1, split)
        }
    }

    /// Rows: labelled classes; columns: what was recognized (``Judgement/recognized``: the first
    /// gesture started, or the swipe a first pan led to); cells: recordings.
    public var confusion: [String: [String: Int]] {
        var matrix: [String: [String: Int]] = [:]
        for e in entries { matrix[e.label.classLabel, default: [:]][e.judgement.recognized, default: 0] += 1 }
        return matrix
    }

    /// The swipes' decision times, as shares of their strokes.
    public var decisionShares: [Double] { entries.compactMap(\.judgement.decisionShare) }

    /// The confusion-matrix column a class is recognized as: `none` for the negatives.
    static func column(of className: String) -> String {
        className.hasPrefix("negative-") ? "none" : className
    }

    /// The entries of one device (and, given, one touch surface) as a report of their own.
    public func only(device: String, surface: String? = nil) -> EvaluationReport {
        var r = EvaluationReport()
        r.entries = entries.filter { $0.label.device == device && (surface == nil || $0.surface == surface) }
        return r
    }

    /// The groups ``deviceTables`` prints: each device, and each of its touch surfaces where
    /// its recordings were made on more than one.
    public var deviceGroups: [(title: String, report: EvaluationReport)] {
        devices.flatMap { d in
            [("\(d.name)", only(device: d.name))]
                + d.surfaces.map { ("\(d.name) on \($0.size)", only(device: d.name, surface: $0.size)) }
        }
    }

    /// The class table of every device, and of every touch surface of a device that has more
    /// than one: where a rule tuned on one board goes wrong on another.
    public var deviceTables: String {
        deviceGroups.map { title, report in
            "\n\(title): \(report.entries.count) recordings, \(report.right) right (\(percent(report.right, report.entries.count)))\n"
                + report.classTable
        }.joined()
    }

    /// The class table: files, right, recall, precision and false gestures per class.
    var classTable: String {
        var s = "class".padding(16) + "files".leftPadded(to: 6) + "right".leftPadded(to: 7) + "recall".leftPadded(to: 8)
            + "precision".leftPadded(to: 11) + "false gestures".leftPadded(to: 16) + "\n"
        for (name, f) in classes {
            s += name.padding(16) + "\(f.files)".leftPadded(to: 6) + "\(f.right)".leftPadded(to: 7)
                + percent(f.right, f.files).leftPadded(to: 8) + percent(f.recognizedRight, f.recognizedAs).leftPadded(to: 11)
                + "\(f.falseGestures)".leftPadded(to: 16) + "\n"
        }
        return s
    }

    /// The classes of every device (and touch surface, where a device has several) as JSON.
    public var deviceTablesJSON: String {
        "{" + deviceGroups.map { title, report in
            "\(jsonString(title)): {" + report.classes.map { name, f in
                "\(jsonString(name)): {\"files\": \(f.files), \"right\": \(f.right), \"false_gestures\": \(f.falseGestures)}"
            }.joined(separator: ", ") + "}"
        }.joined(separator: ", ") + "}"
    }

    /// The tables for people.
    public var text: String {
        var s = "\(entries.count) recordings evaluated, \(right) right (\(percent(right, entries.count)))"
        s += skipped.isEmpty ? "\n" : "; \(skipped.count) not evaluated\n\n"
        s += classTable
        s += "\nby device: " + devices.map { d in
            "\(d.name) \(d.right)/\(d.files) (\(percent(d.right, d.files))"
                + d.surfaces.map { "; on \($0.size) \($0.right)/\($0.files), \(percent($0.right, $0.files))" }.joined() + ")"
        }.joined(separator: ", ") + "\n"
        return s + afterDevices
    }

    /// What follows the device line: the swipes' decision times and the confusion matrix.
    private var afterDevices: String {
        var s = ""
        let shares = decisionShares
        if !shares.isEmpty {
            let mean = shares.reduce(0, +) / Double(shares.count)
            s += "swipes decided at \(formatDecimal(mean * 100, places: 0))% of the stroke on average "
                + "(latest \(formatDecimal((shares.max() ?? 0) * 100, places: 0))%)\n"
        }
        let matrix = confusion
        let columns = Set(matrix.values.flatMap(\.keys)).sorted { a, b in a == "none" ? false : b == "none" ? true : a < b }
        s += "\nconfusion (rows: labelled; columns: the first gesture started; a pan its swipe follows: the swipe)\n"
        s += "".padding(16) + columns.map { $0.leftPadded(to: max(6, $0.count + 1)) }.joined() + "\n"
        for row in matrix.keys.sorted() {
            s += row.padding(16) + columns.map { c in
                let n = matrix[row]?[c] ?? 0
                return (n == 0 ? "." : "\(n)").leftPadded(to: max(6, c.count + 1))
            }.joined() + "\n"
        }
        return s
    }

    /// Every wrong recording with why, for people.
    public var wrongList: String {
        entries.filter { !$0.judgement.right }.map { "\($0.label.file): \($0.label.classLabel): \($0.judgement.why)\n" }.joined()
    }

    /// The same as one JSON object, for machines.
    public var json: String {
        var s = "{\"evaluated\": \(entries.count), \"right\": \(right), \"skipped\": \(skipped.count), \"classes\": {"
        s += classes.map { name, f in
            "\(jsonString(name)): {\"files\": \(f.files), \"right\": \(f.right), \"recall\": \(formatDecimal(f.recall, places: 4)), "
                + "\"precision\": \(formatDecimal(f.precision, places: 4)), \"false_gestures\": \(f.falseGestures)}"
        }.joined(separator: ", ")
        s += "}, \"devices\": {" + devices.map { d in
            "\(jsonString(d.name)): {\"files\": \(d.files), \"right\": \(d.right)"
                + (d.surfaces.isEmpty ? "" : ", \"surfaces\": {" + d.surfaces.map {
                    "\(jsonString($0.size)): {\"files\": \($0.files), \"right\": \($0.right)}"
                }.joined(separator: ", ") + "}") + "}"
        }.joined(separator: ", ") + "}"
        s += ", \"confusion\": {" + confusion.keys.sorted().map { row in
            "\(jsonString(row)): {" + (confusion[row] ?? [:]).keys.sorted().map { "\(jsonString($0)): \(confusion[row]![$0]!)" }
                .joined(separator: ", ") + "}"
        }.joined(separator: ", ") + "}"
        s += ", \"swipe_decision_shares\": [" + decisionShares.map { formatDecimal($0, places: 3) }.joined(separator: ", ") + "]"
        s += ", \"files\": [" + entries.map { e in
            "{\"file\": \(jsonString(e.label.file)), \"class\": \(jsonString(e.label.classLabel)), "
                + "\"recognized\": \(jsonString(e.judgement.recognized)), \"right\": \(e.judgement.right), "
                + "\"why\": \(jsonString(e.judgement.why))}"
        }.joined(separator: ", ") + "]}\n"
        return s
    }

    private func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : formatDecimal(Double(part) * 100 / Double(whole), places: 1) + "%"
    }
}

extension String {
    /// Pads on the right up to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
