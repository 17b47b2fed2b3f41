import Foundation
import TouchEvents
import TouchRecordings

/// The repository's root folder (for fixtures/).
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

func fixture(_ relative: String) -> String { repositoryRoot + "/fixtures/" + relative }

/// A fresh folder for files a test writes.
func temporaryFolder() -> String {
    let path = NSTemporaryDirectory() + "gestured-tests-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes `data` at `path`; a test cannot go on without it.
func put(_ path: String, _ data: Data) {
    precondition(FileManager.default.createFile(atPath: path, contents: data), "cannot write \(path)")
}

func put(_ path: String, _ text: String) { put(path, Data(text.utf8)) }

/// Writes `text` as `name` in a fresh folder and returns its path.
func writeTemporary(_ name: String, _ text: String) -> String {
    let path = temporaryFolder() + "/" + name
    put(path, text)
    return path
}

/// Loads `text` as a recording named `name` and decodes its first touch device;
/// returns the error text with the folder removed (`name:LINE: message`), or nil.
func loadError(_ name: String, _ text: String) -> String? {
    loadError(name, Data(text.utf8))
}

func loadError(_ name: String, _ data: Data) -> String? {
    let folder = temporaryFolder()
    let path = folder + "/" + name
    put(path, data)
    do throws(RecordingError) {
        let recording = try Recording.load(path: path)
        let device = try recording.device(nil)
        try device.decodeFrames(surface: TouchSurface(device: device.description)!, path: path) { _ in }
        return nil
    } catch {
        return error.description.replacingOccurrences(of: folder + "/", with: "")
    }
}

/// A minimal valid libinput recording of a 2-slot touchscreen; `events` goes under `events:`.
func libinputRecording(events: String, version: String = "1", extraDeviceKeys: String = "") -> String {
    """
    # libinput record
    version: \(version)
    ndevices: 1
    libinput:
      version: "1.22.1"
    devices:
    - node: /dev/input/event4
      evdev:
        # Name: Test
        # Supported Events:
        # Event type 3 (EV_ABS)
        #   Event code 47 (ABS_MT_SLOT)
        #       Value           1
        name: "Test Touchscreen"
        id: [3, 1, 2, 3]
        codes:
          0: [0, 1, 2, 3] # EV_SYN
          1: [330] # EV_KEY
          3: [0, 1, 47, 53, 54, 57] # EV_ABS
        absinfo:
          0: [0, 1000, 0, 0, 10]
          1: [0, 500, 0, 0, 10]
          47: [0, 1, 0, 0, 0]
          53: [0, 1000, 0, 0, 10]
          54: [0, 500, 0, 0, 10]
          57: [0, 65535, 0, 0, 0]
        properties: [1]
    \(extraDeviceKeys)  udev:
        properties:
        - ID_INPUT=1
        - ID_INPUT_TOUCHSCREEN=1
      quirks:
      events:
    \(events)
    """
}

/// One frame: a finger down at (100, 200) in slot 0, and a report.
let oneTouchFrame = """
      - evdev:
        - [  0,      0,   3,  47,     0] # EV_ABS / ABS_MT_SLOT 0
        - [  0,      0,   3,  57,     5]
        - [  0,      0,   3,  53,   100]
        - [  0,      0,   3,  54,   200]
        - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +0ms
    """

/// A minimal evemu description of a protocol-B touchscreen, 1000 x 500 units, no resolution.
let evemuDescription = """
    # EVEMU 1.3
    N: Test evemu Touchscreen
    I: 0018 0000 0000 0000
    P: 02 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 04 00 00 00 00 00 00
    B: 03 03 00 00 00 00 80 60 02
    A: 00 0 1000 0 0 0
    A: 01 0 500 0 0 0
    A: 2f 0 4 0 0 0
    A: 35 0 1000 0 0
    A: 36 0 500 0 0 0
    A: 39 0 65535 0 0 0

    """
