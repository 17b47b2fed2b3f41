import GestureEvaluation
import Gestures
import TouchEvents

/// `gestured evaluate --html FILE`: the evaluation as one self-contained web page — the class
/// and device tables, the confusion matrix drawn as a heat map, and for every wrong recording
/// its trace (as `gestured render` draws it) beside what was expected and what was recognized.
struct EvaluationPage {
    var report: EvaluationReport
    /// SVG drawings of the wrong recordings, by file.
    var drawings: [String: String]
    var folder: String

    var html: String {
        var s = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>gestured evaluate \(xml(folder))</title>
            <style>
            body { font-family: sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; margin: 1em 0; }
            td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
            th:first-child, td:first-child { text-align: left; }
            .wrong { margin: 2em 0; border-top: 1px solid #ccc; }
            .wrong svg { max-width: 900px; height: auto; border: 1px solid #eee; }
            </style></head><body>

            """
        s += "<h1>gestured evaluate \(xml(folder))</h1>\n"
        s += "<p>\(report.entries.count) recordings evaluated, \(report.right) right"
        s += " (\(percent(report.right, report.entries.count))); \(report.skipped.count) not evaluated.</p>\n"
        s += "<h2>Classes</h2>\n<table><tr><th>class</th><th>files</th><th>right</th><th>recall</th><th>precision</th><th>false gestures</th></tr>\n"
        for (name, f) in report.classes {
            s += "<tr><td>\(xml(name))</td><td>\(f.files)</td><td>\(f.right)</td><td>\(percent(f.right, f.files))</td>"
            s += "<td>\(percent(f.recognizedRight, f.recognizedAs))</td><td>\(f.falseGestures)</td></tr>\n"
        }
        s += "</table>\n<h2>Devices</h2>\n<table><tr><th>device</th><th>files</th><th>right</th></tr>\n"
        for d in report.devices {
            s += "<tr><td>\(xml(d.name))</td><td>\(d.files)</td><td>\(d.right) (\(percent(d.right, d.files)))</td></tr>\n"
            for surface in d.surfaces {
                s += "<tr><td>\(xml(d.name)), \(xml(surface.size))</td><td>\(surface.files)</td>"
                    + "<td>\(surface.right) (\(percent(surface.right, surface.files)))</td></tr>\n"
            }
        }
        s += "</table>\n<h2>Confusion</h2>\n<p>Rows: labelled; columns: the first gesture started (a pan its swipe follows: the swipe).</p>\n"
        s += heatMap
        let wrong = report.entries.filter { !$0.judgement.right }
        s += "<h2>Wrong (\(wrong.count))</h2>\n"
        for e in wrong {
            s += "<div class=\"wrong\"><h3>\(xml(e.label.file))</h3>\n"
            var expected = e.label.classLabel
            if let d = e.label.direction { expected += " \(d)" }
            if let r = e.label.repetitions, r > 1 { expected += " ×\(r)" }
            s += "<p>expected <b>\(xml(expected))</b>; recognized first <b>\(xml(e.judgement.recognized))</b>"
            if !e.judgement.falseGestures.isEmpty { s += "; false: \(xml(e.judgement.falseGestures.joined(separator: ", ")))" }
            s += "<br>\(xml(e.judgement.why))</p>\n"
            if let svg = drawings[e.label.file] { s += svg.replacingXMLDeclaration + "\n" }
            s += "</div>\n"
        }
        return s + "</body></html>\n"
    }

    /// The confusion matrix as an SVG heat map: each cell shaded by its share of its row.
    var heatMap: String {
        let matrix = report.confusion
        let rows = matrix.keys.sorted()
        let columns = Set(matrix.values.flatMap(\.keys)).sorted { a, b in a == "none" ? false : b == "none" ? true : a < b }
        let cell = 46.0, left = 130.0, top = 110.0
        let width = left + cell * Double(columns.count) + 10, height = top + cell * Double(rows.count) + 10
        func n(_ v: Double) -> String { formatDecimal(v, places: 1) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        for (j, column) in columns.enumerated() {
            let x = left + cell * Double(j) + cell / 2
            svg += "<text x=\"\(n(x))\" y=\"\(n(top - 6))\" transform=\"rotate(-60 \(n(x)) \(n(top - 6)))\">\(xml(column))</text>\n"
        }
        for (i, row) in rows.enumerated() {
            let y = top + cell * Double(i)
            let total = matrix[row]?.values.reduce(0, +) ?? 0
            svg += "<text x=\"\(n(left - 6))\" y=\"\(n(y + cell / 2 + 4))\" text-anchor=\"end\">\(xml(row))</text>\n"
            for (j, column) in columns.enumerated() {
                let count = matrix[row]?[column] ?? 0
                let share = total == 0 ? 0 : Double(count) / Double(total)
                let right = Self.agrees(row: row, column: column)
                // Blue where the first gesture is the labelled class, orange where it is not.
                let colour = right ? "0,114,178" : "213,94,0"
                let x = left + cell * Double(j)
                svg += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(cell))\" height=\"\(n(cell))\" fill=\"rgba(\(colour),\(formatDecimal(share, places: 3)))\" stroke=\"#ddd\"/>\n"
                if count > 0 {
                    svg += "<text x=\"\(n(x + cell / 2))\" y=\"\(n(y + cell / 2 + 4))\" text-anchor=\"middle\">\(count)</text>\n"
                }
            }
        }
        return svg + "</svg>\n"
    }

    /// Whether the column is what the row's label asks for first.
    static func agrees(row: String, column: String) -> Bool {
        row.hasPrefix("negative-") ? column == "none" : row == column
    }

    private func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : formatDecimal(Double(part) * 100 / Double(whole), places: 1) + "%"
    }

    private func xml(_ s: String) -> String { SVGRenderer.xml(s) }
}

extension String {
    /// An SVG document without its `<?xml …?>` line, to be put inside a page.
    fileprivate var replacingXMLDeclaration: String {
        guard hasPrefix("<?xml"), let end = firstIndex(of: "\n") else { return self }
        return String(self[index(after: end)...])
    }
}
