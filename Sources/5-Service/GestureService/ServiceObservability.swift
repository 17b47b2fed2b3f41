import GestureHTTP
import GestureRuntime
import GestureView
import Gestures
import Logging
import SystemLoop
import TouchEvents

/// What the service lets people watch: the live view (`--view`: each session's frames, gestures
/// and failures, drawn on a page) and the metrics (`--metrics`: swift-metrics into a
/// swift-prometheus registry of its own, served at `/metrics`). Both off by default; each its own
/// user of the service's `SharedEventLoop`. Fed by the service's composition root
/// (``GestureService``) and, for refused requests and clients' regions, by the ``ClientHub``.
final class ServiceObservability {
    /// The live view, when served.
    private(set) var view: LiveView?
    /// The metrics, when served.
    private(set) var metrics: ServiceMetrics?
    private var metricsServer: WebServer?

    init() {}

    /// Where the metrics are served (with the port chosen, for port 0).
    var metricsAddress: ListenAddress? { metricsServer?.address }

    /// Serves the metrics at `metricsAddress` and the view with `viewOptions`, as asked; the
    /// view's address is logged with its token. `counts` tells the metrics the devices and
    /// clients of the moment; the runtime's frames' latency and its devices' trouble are counted.
    func start(metricsAddress: ListenAddress?, viewOptions: LiveView.Options?, title: String, runtime: GestureRuntime,
               loop: SharedEventLoop, clock: any TouchClock, logger: Logger,
               counts: @escaping () -> (devices: Int, clients: Int)) throws(ServiceError) {
        if let address = metricsAddress {
            let metrics = ServiceMetrics()
            self.metrics = metrics
            do throws(SystemError) {
                metricsServer = try WebServer(address: address, loop: loop, clock: clock, logger: logger) { request in
                    guard request.path == "/metrics" else {
                        return .respond(.text(404, "no such page: the metrics are at /metrics"))
                    }
                    let (devices, clients) = counts()
                    let body = metrics.exposition(devices: devices, clients: clients)
                    return .respond(HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: body))
                }
            } catch {
                throw .system(SystemError(path: error.path, message: "cannot serve the metrics: \(error.message)"))
            }
            runtime.onFrameHandled = { [unowned metrics] eventTime, handledAt in
                metrics.frameHandled(eventTime: eventTime, handledAt: handledAt)
            }
            runtime.onDeviceTrouble = { [unowned metrics] trouble, session in
                metrics.trouble(trouble, device: session.node ?? session.description.name)
            }
            logger.info("serving metrics", metadata: ["address": "http://\(metricsServer!.address)/metrics"])
        }
        if let viewOptions {
            do throws(LiveView.SetupError) {
                view = try LiveView(options: viewOptions, loop: loop, clock: clock, logger: logger, source: "live", title: title)
            } catch {
                throw .view(error)
            }
            logger.notice("serving the live view: open this address (it holds the token)", metadata: ["address": "\(view!.url)"])
        }
    }

    /// A session began: its frames and failures go to the view and the metrics, when served.
    func watch(_ session: DeviceSession) {
        guard view != nil || metrics != nil else { return }
        if let view {
            view.add(session)
            session.afterFrame = { [unowned view, unowned session] frame in view.frame(frame, of: session) }
        }
        let metrics = self.metrics
        let view = self.view
        session.pipeline.failureObserver = { [unowned session] recognizer, reason, time in
            metrics?.failure(kind: recognizer.kind, reason: reason)
            view?.failure(recognizer, reason: reason, at: time, of: session)
        }
    }

    /// A session ended: the view no longer draws it.
    func remove(_ session: DeviceSession) {
        view?.remove(session)
    }

    /// A gesture of `session`, for the view and the metrics.
    func gesture(_ g: Gesture, of session: DeviceSession) {
        if let view { view.gesture(g, of: session) }
        if let metrics { metrics.gesture(g, device: session.node ?? session.description.name) }
    }

    /// A socket client's request was refused with `code`.
    func refused(code: String) {
        metrics?.refused(code: code)
    }

    /// An action ran, failed or was stopped.
    func action(_ outcome: ActionRunner.Outcome) {
        metrics?.action(outcome)
    }

    /// Clients' regions changed in these layouts: the view draws them anew.
    func clientLayoutsChanged(_ layouts: @autoclosure () -> [Layout]) {
        view?.layoutChanged(layouts())
    }

    /// Stops serving.
    func close() {
        view?.close()
        metricsServer?.close()
    }
}
