import Testing
import TouchEvents
import TouchInput

/// What the desktop actions' virtual devices are made of (the real-kernel lane creates them).
@Suite("Virtual keyboard and pointer")
struct VirtualDeviceTests {
    @Test func everyKeyNameLibevdevKnowsMeansTheSameKey() {
        // gestured's table comes from a newer kernel header than Debian 12's libevdev 1.13:
        // the names libevdev lacks are the newest keys, and only those.
        var newer: [String] = []
        for (name, code) in KeyNames.codes.sorted(by: { $0.key < $1.key }) {
            guard let theirs = LibevdevNames.keyCode(named: "KEY_" + name.uppercased()) else {
                newer.append(name)
                continue
            }
            #expect(theirs == code, "KEY_\(name.uppercased())")
        }
        #expect(KeyNames.codes.count - newer.count > 400)
        #expect(Set(newer).isSubset(of: ["link_phone", "refresh_rate_toggle"]), "\(newer)")
    }

    @Test func theKeyboardHasEveryKeyAndNoButtonsAndThePointerHasWheelsAndButtons() throws {
        let keyboard = DeviceDescription.virtualKeyboard
        #expect(keyboard.name == "gestured virtual keyboard")
        #expect(keyboard.codes[EventType.key] == Set(KeyNames.keyboardCodes))
        #expect(keyboard.codes[EventType.rep] == nil)
        let pointer = DeviceDescription.virtualPointer
        #expect(pointer.name == "gestured virtual pointer")
        #expect(pointer.codes[EventType.key] == [KeyCode.left, KeyCode.right, KeyCode.middle])
        #expect(pointer.codes[EventType.rel] == [RelCode.x, RelCode.y, RelCode.wheel, RelCode.hWheel,
                                                  RelCode.wheelHighResolution, RelCode.hWheelHighResolution])
        // libevdev takes both as they are.
        for d in [keyboard, pointer] {
            let handle = try LibevdevHandle(description: d)
            let back = DeviceDescription(libevdev: handle.pointer)
            #expect(back.name == d.name)
            #expect(back.id == d.id)
            #expect(back.properties == d.properties)
            for (type, codes) in d.codes where type != EventType.syn { #expect(back.codes[type] == codes, "type \(type)") }
            #expect(back.kind == .other)
        }
    }
}
