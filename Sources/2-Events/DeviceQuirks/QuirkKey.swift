/// A quirks key gestured reads, declared once with the type of its value: its name as the
/// files write it, the form its value is written in, and how that text becomes a `Value`.
///
/// `DeviceQuirks`' typed subscript reads one (`quirks[.palmPressureThreshold]`): it parses
/// the value's text then, when a device asks. The parser checks every line of a declared key
/// against its form as it loads a file (a line whose value is not so written is a
/// ``QuirksProblem`` and skipped), so a value that is there parses. Keys no one declared are
/// kept as the text they were written with: `Model*` keys checked to be 0 or 1, as every
/// `Model*` key is written, `Attr*` keys not checked at all.
///
/// The declared keys are the static members: `palmPressureThreshold`, `palmSizeThreshold`,
/// `thumbPressureThreshold`, `thumbSizeThreshold` (whole numbers), `pressureRange`,
/// `touchSizeRange` (``QuirkRange``), `sizeHint`, `resolutionHint` (``QuirkDimensions``) and
/// `pressurePad` (a `Model*` key, true or false).
public struct QuirkKey<Value: Sendable>: Sendable {
    /// The key as the files write it: `AttrPalmPressureThreshold`.
    public let name: String
    /// How its value is written, as a problem's message says it after the key's name:
    /// `takes a whole number`, `takes HIGH:LOW, HIGH above LOW, or none`, `takes WIDTHxHEIGHT`,
    /// `takes 0 or 1`.
    public let form: String
    private let parser: @Sendable (String) -> Value?

    init(_ name: String, form: String, parse: @escaping @Sendable (String) -> Value?) {
        self.name = name
        self.form = form
        self.parser = parse
    }

    /// The value a line's text says; nil where the text is not in the key's ``form``.
    public func parse(_ text: String) -> Value? { parser(text) }

    /// Why a line's `value` cannot be this key's (`AttrSizeHint takes WIDTHxHEIGHT, not 100x:
    /// skipped`); nil: it can.
    func problem(with value: String) -> String? {
        parse(value) != nil ? nil : AnyQuirkKey.message(key: name, form: form, value: value)
    }
}

// MARK: The forms

extension QuirkKey where Value == UInt32 {
    /// A whole number from 0 to 4294967295 (`254`).
    static func wholeNumber(_ name: String) -> QuirkKey<UInt32> {
        QuirkKey(name, form: "takes a whole number") { UInt32($0) }
    }
}

extension QuirkKey where Value == QuirkRange {
    /// `HIGH:LOW`, HIGH above LOW, or `none` (``QuirkRange``).
    static func range(_ name: String) -> QuirkKey<QuirkRange> {
        QuirkKey(name, form: "takes HIGH:LOW, HIGH above LOW, or none") { QuirkRange(parsing: $0) }
    }
}

extension QuirkKey where Value == QuirkDimensions {
    /// `WIDTHxHEIGHT`, two whole numbers (``QuirkDimensions``).
    static func dimensions(_ name: String) -> QuirkKey<QuirkDimensions> {
        QuirkKey(name, form: "takes WIDTHxHEIGHT") { QuirkDimensions(parsing: $0) }
    }
}

extension QuirkKey where Value == Bool {
    /// `1` (true) or `0` (false): every `Model*` key, declared or not, takes this form.
    static func model(_ name: String) -> QuirkKey<Bool> {
        QuirkKey(name, form: "takes 0 or 1") { $0 == "1" ? true : $0 == "0" ? false : nil }
    }
}

// MARK: The keys gestured reads

extension QuirkKey where Value == UInt32 {
    /// `AttrPalmPressureThreshold`: a contact pressing harder than this is a palm, in
    /// `ABS_MT_PRESSURE` units; a whole number.
    public static var palmPressureThreshold: QuirkKey<UInt32> { .wholeNumber("AttrPalmPressureThreshold") }
    /// `AttrPalmSizeThreshold`: a contact whose touch major is larger than this is a palm, in
    /// `ABS_MT_TOUCH_MAJOR` units; a whole number.
    public static var palmSizeThreshold: QuirkKey<UInt32> { .wholeNumber("AttrPalmSizeThreshold") }
    /// `AttrThumbPressureThreshold`: a contact pressing harder than this is a thumb, in
    /// `ABS_MT_PRESSURE` units; a whole number.
    public static var thumbPressureThreshold: QuirkKey<UInt32> { .wholeNumber("AttrThumbPressureThreshold") }
    /// `AttrThumbSizeThreshold`: a contact whose touch major is larger than this is a thumb,
    /// in `ABS_MT_TOUCH_MAJOR` units; a whole number.
    public static var thumbSizeThreshold: QuirkKey<UInt32> { .wholeNumber("AttrThumbSizeThreshold") }
}

extension QuirkKey where Value == QuirkRange {
    /// `AttrPressureRange`: a touch begins pressing more than HIGH and ends pressing less than
    /// LOW, in `ABS_MT_PRESSURE` units (`HIGH:LOW`), or `none`: pressure tells no touch.
    public static var pressureRange: QuirkKey<QuirkRange> { .range("AttrPressureRange") }
    /// `AttrTouchSizeRange`: the same by touch major, in `ABS_MT_TOUCH_MAJOR` units.
    public static var touchSizeRange: QuirkKey<QuirkRange> { .range("AttrTouchSizeRange") }
}

extension QuirkKey where Value == QuirkDimensions {
    /// `AttrSizeHint`: the pad's width and height in millimetres (`WIDTHxHEIGHT`), for a
    /// device that reports no resolution.
    public static var sizeHint: QuirkKey<QuirkDimensions> { .dimensions("AttrSizeHint") }
    /// `AttrResolutionHint`: units per millimetre on x and on y (`XxY`), for a device that
    /// reports none.
    public static var resolutionHint: QuirkKey<QuirkDimensions> { .dimensions("AttrResolutionHint") }
}

extension QuirkKey where Value == Bool {
    /// `ModelPressurePad`: `1`, the pad measures force (a haptic pad), and its pressure tells
    /// no palm; `0`, it does not.
    public static var pressurePad: QuirkKey<Bool> { .model("ModelPressurePad") }
}

/// A declared ``QuirkKey`` without its type: what the parser needs to check a line's value.
/// A key is declared by its static member on `QuirkKey` and one entry in ``declared``.
struct AnyQuirkKey: Sendable {
    /// The key's ``QuirkKey/name``.
    let name: String
    /// The key's ``QuirkKey/form``.
    let form: String
    /// Why a line's value cannot be the key's (``QuirkKey/problem(with:)``); nil: it can.
    let problem: @Sendable (String) -> String?

    init<Value>(_ key: QuirkKey<Value>) {
        name = key.name
        form = key.form
        problem = { key.problem(with: $0) }
    }

    /// The problem of a line of key `key` whose `value` is not in `form`:
    /// `AttrSizeHint takes WIDTHxHEIGHT, not 100x: skipped`.
    static func message(key: String, form: String, value: String) -> String {
        "\(key) \(form), not \(value): skipped"
    }

    /// Every declared key, once each: the `Attr*` keys whose lines are checked at load by
    /// their form (a `Model*` key's is every `Model*` key's, checked without a lookup).
    static let declared: [AnyQuirkKey] = [
        AnyQuirkKey(.palmPressureThreshold), AnyQuirkKey(.palmSizeThreshold),
        AnyQuirkKey(.thumbPressureThreshold), AnyQuirkKey(.thumbSizeThreshold),
        AnyQuirkKey(.pressureRange), AnyQuirkKey(.touchSizeRange),
        AnyQuirkKey(.sizeHint), AnyQuirkKey(.resolutionHint),
        AnyQuirkKey(.pressurePad),
    ]

    /// ``declared`` by name, built once, the first time a file is read (a name declared twice
    /// stops the program there: each key is declared once).
    static let named: [String: AnyQuirkKey] = Dictionary(uniqueKeysWithValues: declared.map { ($0.name, $0) })
}
