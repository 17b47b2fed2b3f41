import TouchEvents

/// Reads the axis values that `evemu-record` and `libinput record` write only as comments:
///
///     #   Event type 3 (EV_ABS)
///     #     Event code 47 (ABS_MT_SLOT)
///     #       Value      1
///
/// Feed it each comment's text after the `#`; it keeps the values of `EV_ABS` axes.
struct AxisValueComments {
    private var type: Int64 = -1
    private var code: Int64 = -1
    /// `ABS_*` code → value.
    var values: [UInt16: Int32] = [:]

    /// `comment` is positioned just after the `#`.
    mutating func read(_ comment: inout ByteCursor) {
        comment.skipSpaces()
        if comment.consume("Event type ") {
            type = comment.decimal() ?? -1
            code = -1
        } else if comment.consume("Event code ") {
            code = comment.decimal() ?? -1
        } else if comment.consume("Value"), type == Int64(EventType.abs), (0...Int64(AbsCode.max)).contains(code) {
            comment.skipSpaces()
            if let v = comment.decimal(), let v32 = Int32(exactly: v) { values[UInt16(code)] = v32 }
        }
    }
}
