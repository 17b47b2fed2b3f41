import CoreMetrics
import GestureRuntime
import Gestures
import Prometheus
import TouchEvents

/// What `gestured run --metrics ADDRESS` serves at `/metrics`, in Prometheus' text format:
/// counted through swift-metrics into a swift-prometheus registry of its own (no global
/// bootstrap: a program that embeds the service keeps its own metrics system). Labels carry
/// devices, kinds, regions and reasons — never a position.
///
/// | metric | type | labels |
/// |---|---|---|
/// | `gestured_gestures_total` | counter | `device`, `kind`, `region` (one per gesture: its `recognized` or `began` event) |
/// | `gestured_recognizer_failures_total` | counter | `kind`, `reason` (``FailureReason/name``) |
/// | `gestured_frame_latency_seconds` | histogram | kernel time stamp → frame handled |
/// | `gestured_kernel_dropped_total` | counter | `device` (`SYN_DROPPED`) |
/// | `gestured_device_resets_total` | counter | `device` (it sent what no device should) |
/// | `gestured_devices` | gauge | touch devices in use |
/// | `gestured_clients` | gauge | socket clients connected |
/// | `gestured_client_messages_refused_total` | counter | `code` (the error reply's) |
/// | `gestured_actions_total` | counter | `outcome` (`started`, `not_started`, `exit_status`, `signal`, `timeout`) |
final class ServiceMetrics {
    /// Every metric's name, as the table above (and docs/view.md) lists them.
    static let names = ["gestured_gestures_total", "gestured_recognizer_failures_total", "gestured_frame_latency_seconds",
                        "gestured_kernel_dropped_total", "gestured_device_resets_total", "gestured_devices", "gestured_clients",
                        "gestured_client_messages_refused_total", "gestured_actions_total"]
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private struct GestureKey: Hashable {
        var device: String
        var kind: GestureKind
        var region: String
    }
    private var gestures: [GestureKey: CoreMetrics.Counter] = [:]
    private var failures: [String: CoreMetrics.Counter] = [:]
    private var dropped: [String: CoreMetrics.Counter] = [:]
    private var resets: [String: CoreMetrics.Counter] = [:]
    private var refused: [String: CoreMetrics.Counter] = [:]
    private var actions: [String: CoreMetrics.Counter] = [:]
    private let latency: CoreMetrics.Timer
    private let devices: CoreMetrics.Gauge
    private let clients: CoreMetrics.Gauge

    /// Frame latency buckets: from well under a frame of a 120 Hz panel (250 µs) to a stall a
    /// user sees (128 ms), doubling.
    static let latencyBuckets: [Duration] = [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128_000].map { .microseconds($0) }

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["gestured_frame_latency_seconds"] = Self.latencyBuckets
        self.factory = factory
        latency = CoreMetrics.Timer(label: "gestured_frame_latency_seconds", dimensions: [], factory: factory)
        devices = CoreMetrics.Gauge(label: "gestured_devices", dimensions: [], factory: factory)
        clients = CoreMetrics.Gauge(label: "gestured_clients", dimensions: [], factory: factory)
    }

    /// Counts `g` once, at its `recognized` or `began` event.
    func gesture(_ g: Gesture, device: String) {
        guard g.state == .recognized || g.state == .began else { return }
        let region = g.namespace.map { "client \($0): \(g.region)" } ?? g.region
        let key = GestureKey(device: device, kind: g.kind, region: region)
        if let counter = gestures[key] { return counter.increment() }
        let counter = CoreMetrics.Counter(label: "gestured_gestures_total",
                                          dimensions: [("device", device), ("kind", g.kind.rawValue), ("region", region)], factory: factory)
        gestures[key] = counter
        counter.increment()
    }

    func failure(kind: GestureKind, reason: FailureReason) {
        let key = kind.rawValue + "\u{0}" + reason.name
        counter(&failures, key, "gestured_recognizer_failures_total", [("kind", kind.rawValue), ("reason", reason.name)]).increment()
    }

    func frameHandled(eventTime: Instant, handledAt: Instant) {
        latency.recordNanoseconds(max(0, (handledAt - eventTime).inMicroseconds) * 1000)
    }

    func trouble(_ trouble: GestureRuntime.DeviceTrouble, device: String) {
        switch trouble {
        case .kernelDropped: counter(&dropped, device, "gestured_kernel_dropped_total", [("device", device)]).increment()
        case .reset: counter(&resets, device, "gestured_device_resets_total", [("device", device)]).increment()
        }
    }

    func refused(code: String) {
        counter(&refused, code, "gestured_client_messages_refused_total", [("code", code)]).increment()
    }

    func action(_ outcome: ActionRunner.Outcome) {
        counter(&actions, outcome.rawValue, "gestured_actions_total", [("outcome", outcome.rawValue)]).increment()
    }

    private func counter(_ table: inout [String: CoreMetrics.Counter], _ key: String, _ label: String,
                         _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        if let c = table[key] { return c }
        let c = CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
        table[key] = c
        return c
    }

    /// The exposition, with the gauges read now.
    func exposition(devices deviceCount: Int, clients clientCount: Int) -> [UInt8] {
        devices.record(deviceCount)
        clients.record(clientCount)
        var out: [UInt8] = []
        registry.emit(into: &out)
        return out
    }
}
