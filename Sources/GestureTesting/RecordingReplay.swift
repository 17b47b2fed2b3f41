import Gestures
import TouchEvents
import TouchRecordings

/// Replays a recording through the decoder and a gesture pipeline, exactly as the service
/// would see it live, and returns the ordered gesture log.
public enum RecordingReplay {
    /// What a replay produced.
    public struct Result {
        public var recording: Recording
        public var device: RecordedDevice
        public var surface: TouchSurface
        public var gestures: [Gesture]
    }

    /// Replays `path` (libinput record or evemu) against `layout`, or against the built-in
    /// layout (``Layout/standard(size:touchscreen:)``) sized to the device when nil.
    /// `configure` may attach handlers to the pipeline's layout before anything is played.
    public static func run(
        path: String, descPath: String? = nil, deviceIndex: Int? = nil, size: SurfaceSize? = nil,
        layout: Layout? = nil, configure: ((GesturePipeline) -> Void)? = nil,
        onFrame: ((TouchFrame) -> Void)? = nil, beforeDecoding: ((RecordedDevice) -> Void)? = nil
    ) throws(RecordingError) -> Result {
        let recording = try Recording.load(path: path, descPath: descPath)
        let device = try recording.device(deviceIndex)
        beforeDecoding?(device)
        guard device.description.isTouchDevice else {
            throw RecordingError(path: path, line: 0, message:
                "\"\(device.description.name)\" is not a touchscreen or touchpad; choose a touch device with --device N")
        }
        guard let surface = TouchSurface(device: device.description, size: size) else {
            throw RecordingError(path: path, line: 0, message: "\"\(device.description.name)\" has no position axes")
        }
        let size = surface.size
        let pipeline = GesturePipeline(
            layout: layout ?? Layout.standard(size: (size.width, size.height), touchscreen: device.description.kind == .touchscreen),
            deviceName: device.description.name)
        var gestures: [Gesture] = []
        pipeline.observer = { gestures.append($0) }
        configure?(pipeline)
        try device.decodeFrames(surface: surface, path: path) { frame in
            onFrame?(frame)
            pipeline.process(frame)
        }
        pipeline.finish()
        return Result(recording: recording, device: device, surface: surface, gestures: gestures)
    }
}
