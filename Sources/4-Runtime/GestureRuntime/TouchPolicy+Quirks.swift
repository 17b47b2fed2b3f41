import DeviceQuirks
import Gestures
import TouchEvents

extension TouchPolicy {
    /// What libinput's quirks say about a device's pressure (`pressure`: its `ABS_MT_PRESSURE`
    /// axis), put into the policy as libinput reads them:
    /// - a force pad (`ModelPressurePad`, or a pressure axis with a resolution) and a palm
    ///   pressure threshold at the top of the axis (`AttrPalmPressureThreshold=254` of 0–255,
    ///   how libinput's files turn it off) say pressure tells no palm: no palm by pressure, no
    ///   contact that vanished (``pressureTellsPalms``);
    /// - another `AttrPalmPressureThreshold` is the palm pressure: a contact pressing more is a
    ///   palm (in place of half the axis, ``palmPressureShare``);
    /// - `AttrPressureRange=HIGH:LOW`: a contact pressing no more than HIGH hovers, where the
    ///   policy has hovering (``hoverPressureShare``): a touch begins at HIGH; `0:0` turns
    ///   pressure off for touching.
    mutating func apply(_ quirks: DeviceQuirks, pressure axis: AbsInfo) {
        let span = Double(axis.maximum - axis.minimum)
        if quirks.isPressurePad || axis.resolution > 0 {
            pressureTellsPalms = false
            palmPressure = nil
        } else if let threshold = quirks.palmPressureThreshold {
            if span > 0, Double(threshold - axis.minimum) >= span * Self.palmPressureOffShare {
                pressureTellsPalms = false
                palmPressure = nil
            } else if palmPressureShare != nil {
                palmPressure = threshold + 1
            }
        }
        if let range = quirks.pressureRange, hoverPressureShare != nil {
            hoverPressure = range.high == 0 && range.low == 0 ? nil : range.high - 1
        }
    }

    /// A palm pressure threshold this far up the pressure axis or more turns palms by pressure
    /// off: 254 of 0–255 (99.6%) is how libinput's quirks say it for pads whose pressure
    /// says nothing about palms (`30-vendor-cypress.quirks`).
    static let palmPressureOffShare = 0.99
}
