#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Starts `body` on a new thread of its own (detached): where a blocking event loop runs
/// when it is awaited from Swift concurrency, which must not be blocked.
public func startThread(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<AnyObject>.fromOpaque(raw!).takeRetainedValue() as! Box
        box.body()
        return nil
    }, box)
    guard result == 0 else {
        Unmanaged<AnyObject>.fromOpaque(box).release()
        throw SystemError(path: "pthread_create", message: String(cString: strerror(result)), code: result)
    }
    pthread_detach(thread)
}
