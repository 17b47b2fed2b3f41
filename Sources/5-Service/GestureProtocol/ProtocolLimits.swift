/// Protocol version 1's limits: what one client may ask of the service. A request past one
/// gets an error reply; a client that stops reading is dropped.
public enum ProtocolLimits {
    /// The protocol version this build speaks.
    public static let version = 1
    /// Its minor version: what it adds to version 1 without breaking a version 1 client
    /// (1: exclusion regions). A client that needs an addition checks the greeting's `minor`.
    public static let minorVersion = 1
    /// Longest line the service reads, in bytes: a region with every gesture fits many times.
    public static let maximumMessageBytes = 64 * 1024
    /// Regions one client may have registered at once (children count).
    public static let maximumRegions = 256
    /// Gestures on one region.
    public static let maximumGesturesPerRegion = 16
    /// Longest region id, in bytes.
    public static let maximumRegionIDBytes = 128
    /// Requests a client may send per second on average, and in one burst: far above what an
    /// app moving its buttons needs, far below what could slow recognition down.
    public static let requestsPerSecond = 100.0
    public static let requestBurst = 200.0
    /// Bytes a client may fall behind in reading before it is dropped: seconds of busy gestures.
    public static let maximumBacklogBytes = 256 * 1024
    /// Largest coordinate of a frame, in layout units, and largest hit inset.
    public static let maximumCoordinate = 1_000_000.0
    public static let maximumInset = 10_000.0
    /// Context entries a client may set, and the longest key or value in bytes.
    public static let maximumContextEntries = 32
    public static let maximumContextBytes = 1024

    /// The limits as the greeting tells them.
    public static var json: JSONValue {
        var o = JSONObject()
        o["message_bytes"] = .number(Double(maximumMessageBytes))
        o["regions"] = .number(Double(maximumRegions))
        o["gestures_per_region"] = .number(Double(maximumGesturesPerRegion))
        o["requests_per_second"] = .number(requestsPerSecond)
        o["request_burst"] = .number(requestBurst)
        o["backlog_bytes"] = .number(Double(maximumBacklogBytes))
        return .object(o)
    }
}
