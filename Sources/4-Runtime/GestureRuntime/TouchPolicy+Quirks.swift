import DeviceQuirks
import Gestures
import TouchEvents

extension TouchPolicy {
    /// What libinput's quirks say about a device's palms and pressure, put into the policy as
    /// libinput reads them:
    /// - `AttrPalmSizeThreshold`: a contact whose touch major is larger is a palm
    ///   (``palmSize``), where the device reports one and the policy finds palms at all;
    /// - a force pad (`ModelPressurePad`, or a pressure axis with a resolution): its pressure
    ///   tells neither palms nor touching: no palm by pressure, no contact that vanished
    ///   (``pressureTellsPalms``), no hovering;
    /// - `AttrPalmPressureThreshold=0`, or one at the top of the axis (254 of 0–255, how
    ///   libinput's files say it), turns palms by pressure off, and with them vanishing;
    /// - another `AttrPalmPressureThreshold` is the palm pressure: a contact pressing more is a
    ///   palm (in place of half the axis, ``palmPressureShare``);
    /// - `AttrPressureRange=HIGH:LOW`: a contact pressing less than HIGH hovers, where the
    ///   policy has hovering (``hoverPressureShare``): a touch begins at HIGH; `none` turns
    ///   hovering by pressure off; a range outside the axis is ignored;
    /// - `AttrTouchSizeRange=HIGH:LOW`, where the device reports touch major: a contact smaller
    ///   hovers (``touchSizeRange``), on a policy that has hovering;
    /// - `AttrThumbPressureThreshold`, `AttrThumbSizeThreshold`: in the thumb area, only a contact
    ///   pressing or touching like a thumb rests as one, but for its lowest part
    ///   (``thumbPressure``, ``thumbSize``), where the device reports pressure or touch major
    ///   and the policy has a thumb area.
    mutating func apply(_ quirks: DeviceQuirks, device: DeviceDescription) {
        let reportsSize = device.absInfo[AbsCode.mtTouchMajor] != nil
        // AttrPalmSizeThreshold: a contact touching with a larger area is a palm (0: none).
        if let size = quirks.palmSizeThreshold, size > 0, reportsSize, palmPressureShare != nil {
            palmSize = size
        }
        if let range = quirks.touchSizeRange, !range.isNone, reportsSize, hoverPressureShare != nil {
            touchSizeRange = TouchSizeRange(begin: range.high, end: range.low)
        }
        if thumbAreaShare != nil {
            if let size = quirks.thumbSizeThreshold, size > 0, reportsSize { thumbSize = size }
            if let threshold = quirks.thumbPressureThreshold, device.absInfo[AbsCode.mtPressure] != nil { thumbPressure = threshold }
        }
        guard let axis = device.absInfo[AbsCode.mtPressure] else { return }
        let span = Double(axis.maximum) - Double(axis.minimum)
        if quirks.isPressurePad || axis.resolution > 0 {
            // A force pad: its pressure tells neither palms nor touching (libinput's pressure pad).
            pressureTellsPalms = false
            palmPressure = nil
            hoverPressure = nil
            return
        }
        if let threshold = quirks.palmPressureThreshold {
            // 0 (libinput: no palms by pressure), or the top of the axis (its files' way to say it).
            if threshold == 0 || span > 0 && Double(threshold) - Double(axis.minimum) >= span * Self.palmPressureOffShare {
                pressureTellsPalms = false
                palmPressure = nil
            } else if palmPressureShare != nil {
                palmPressure = Int32(clamping: Int64(threshold) + 1)
            }
        }
        // A range outside the axis is no range of this device's (libinput drops it too).
        if let range = quirks.pressureRange, hoverPressureShare != nil,
           range.isNone || range.high <= axis.maximum && range.low >= axis.minimum {
            hoverPressure = range.isNone ? nil : range.high - 1
        }
    }

    /// A palm pressure threshold this far up the pressure axis or more turns palms by pressure
    /// off: 254 of 0–255 (99.6%) is how libinput's quirks say it for pads whose pressure
    /// says nothing about palms (`30-vendor-cypress.quirks`).
    static let palmPressureOffShare = 0.99
}
