/// Block handlers on a region, in the style of BlocksKit and AXKit: each method creates a
/// recognizer, lets `configure` adjust it, attaches the closure and returns a token whose
/// `cancel()` removes both. If the region already has an equal recognizer (same kind and
/// parameters — from a configuration file, or an earlier call) and no `configure` is given,
/// the handler joins that one instead, and `cancel()` removes only the handler. With
/// `owner`, the handler lives only as long as the owner and receives it as an argument, so
/// the closure need not capture it. With `delay`, the call waits that long and is dropped if
/// the gesture is cancelled or the recognizer fires again first. Each handler receives its
/// kind's typed value (``TapGesture``, ``PinchGesture``…); `addHandler` on any recognizer
/// receives the untyped ``Gesture``.
extension Region {
    func attach<R: GestureRecognizer>(
        _ recognizer: R, owner: AnyObject?, delay: Duration, configure: ((R) -> Void)?,
        _ body: @escaping (AnyObject?, Gesture) throws -> Void
    ) -> GestureToken {
        let target: GestureRecognizer
        if configure == nil, let existing = recognizers.first(where: { type(of: $0) == R.self && $0.name == recognizer.name }) {
            target = existing
        } else {
            configure?(recognizer)
            recognizer.ownedByHandlers = true
            add(recognizer)
            target = recognizer
        }
        return target.attachHandler(owner: owner, delay: delay, body)
    }

    @discardableResult
    public func onTap(taps: Int = 1, touches: Int = 1, delay: Duration = .zero, configure: ((TapRecognizer) -> Void)? = nil,
                      _ handler: @escaping (TapGesture) throws -> Void) -> GestureToken {
        attach(TapRecognizer(taps: taps, touches: touches), owner: nil, delay: delay, configure: configure) { if let g = TapGesture($1) { try handler(g) } }
    }

    @discardableResult
    public func onTap<Owner: AnyObject>(owner: Owner, taps: Int = 1, touches: Int = 1, delay: Duration = .zero,
                                        configure: ((TapRecognizer) -> Void)? = nil,
                                        _ handler: @escaping (Owner, TapGesture) throws -> Void) -> GestureToken {
        attach(TapRecognizer(taps: taps, touches: touches), owner: owner, delay: delay, configure: configure) {
            if let o = $0 as? Owner, let g = TapGesture($1) { try handler(o, g) }
        }
    }

    @discardableResult
    public func onDoubleTap(touches: Int = 1, delay: Duration = .zero, configure: ((TapRecognizer) -> Void)? = nil,
                            _ handler: @escaping (TapGesture) throws -> Void) -> GestureToken {
        onTap(taps: 2, touches: touches, delay: delay, configure: configure, handler)
    }

    @discardableResult
    public func onDoubleTap<Owner: AnyObject>(owner: Owner, touches: Int = 1, delay: Duration = .zero,
                                              configure: ((TapRecognizer) -> Void)? = nil,
                                              _ handler: @escaping (Owner, TapGesture) throws -> Void) -> GestureToken {
        onTap(owner: owner, taps: 2, touches: touches, delay: delay, configure: configure, handler)
    }

    @discardableResult
    public func onLongPress(touches: Int = 1, delay: Duration = .zero, configure: ((LongPressRecognizer) -> Void)? = nil,
                            _ handler: @escaping (LongPressGesture) throws -> Void) -> GestureToken {
        attach(LongPressRecognizer(touches: touches), owner: nil, delay: delay, configure: configure) { if let g = LongPressGesture($1) { try handler(g) } }
    }

    @discardableResult
    public func onLongPress<Owner: AnyObject>(owner: Owner, touches: Int = 1, delay: Duration = .zero,
                                              configure: ((LongPressRecognizer) -> Void)? = nil,
                                              _ handler: @escaping (Owner, LongPressGesture) throws -> Void) -> GestureToken {
        attach(LongPressRecognizer(touches: touches), owner: owner, delay: delay, configure: configure) {
            if let o = $0 as? Owner, let g = LongPressGesture($1) { try handler(o, g) }
        }
    }

    @discardableResult
    public func onPan(minimumTouches: Int = 1, maximumTouches: Int = 5, axis: PanAxis? = nil, delay: Duration = .zero,
                      configure: ((PanRecognizer) -> Void)? = nil, _ handler: @escaping (PanGesture) throws -> Void) -> GestureToken {
        attach(Self.pan(minimumTouches, maximumTouches, axis), owner: nil, delay: delay,
               configure: configure) { if let g = PanGesture($1) { try handler(g) } }
    }

    @discardableResult
    public func onPan<Owner: AnyObject>(owner: Owner, minimumTouches: Int = 1, maximumTouches: Int = 5, axis: PanAxis? = nil,
                                        delay: Duration = .zero, configure: ((PanRecognizer) -> Void)? = nil,
                                        _ handler: @escaping (Owner, PanGesture) throws -> Void) -> GestureToken {
        attach(Self.pan(minimumTouches, maximumTouches, axis), owner: owner, delay: delay,
               configure: configure) { if let o = $0 as? Owner, let g = PanGesture($1) { try handler(o, g) } }
    }

    @discardableResult
    public func onSwipe(_ directions: Set<SwipeDirection> = SwipeDirection.straight, touches: Int = 1, delay: Duration = .zero,
                        configure: ((SwipeRecognizer) -> Void)? = nil, _ handler: @escaping (SwipeGesture) throws -> Void) -> GestureToken {
        attach(SwipeRecognizer(directions: directions, touches: touches), owner: nil, delay: delay, configure: configure) { if let g = SwipeGesture($1) { try handler(g) } }
    }

    @discardableResult
    public func onSwipe<Owner: AnyObject>(owner: Owner, _ directions: Set<SwipeDirection> = SwipeDirection.straight,
                                          touches: Int = 1, delay: Duration = .zero, configure: ((SwipeRecognizer) -> Void)? = nil,
                                          _ handler: @escaping (Owner, SwipeGesture) throws -> Void) -> GestureToken {
        attach(SwipeRecognizer(directions: directions, touches: touches), owner: owner, delay: delay, configure: configure) {
            if let o = $0 as? Owner, let g = SwipeGesture($1) { try handler(o, g) }
        }
    }

    @discardableResult
    public func onPinch(delay: Duration = .zero, configure: ((PinchRecognizer) -> Void)? = nil,
                        _ handler: @escaping (PinchGesture) throws -> Void) -> GestureToken {
        attach(Self.pinch(), owner: nil, delay: delay, configure: configure) { if let g = PinchGesture($1) { try handler(g) } }
    }

    @discardableResult
    public func onPinch<Owner: AnyObject>(owner: Owner, delay: Duration = .zero, configure: ((PinchRecognizer) -> Void)? = nil,
                                          _ handler: @escaping (Owner, PinchGesture) throws -> Void) -> GestureToken {
        attach(Self.pinch(), owner: owner, delay: delay, configure: configure) { if let o = $0 as? Owner, let g = PinchGesture($1) { try handler(o, g) } }
    }

    @discardableResult
    public func onRotate(delay: Duration = .zero, configure: ((RotateRecognizer) -> Void)? = nil,
                         _ handler: @escaping (RotateGesture) throws -> Void) -> GestureToken {
        attach(Self.rotate(), owner: nil, delay: delay, configure: configure) { if let g = RotateGesture($1) { try handler(g) } }
    }

    @discardableResult
    public func onRotate<Owner: AnyObject>(owner: Owner, delay: Duration = .zero, configure: ((RotateRecognizer) -> Void)? = nil,
                                           _ handler: @escaping (Owner, RotateGesture) throws -> Void) -> GestureToken {
        attach(Self.rotate(), owner: owner, delay: delay, configure: configure) { if let o = $0 as? Owner, let g = RotateGesture($1) { try handler(o, g) } }
    }

    @discardableResult
    public func onEdgePan(_ edges: Set<Edge> = Set(Edge.allCases), touches: Int = 1, delay: Duration = .zero,
                          configure: ((EdgePanRecognizer) -> Void)? = nil, _ handler: @escaping (EdgePanGesture) throws -> Void) -> GestureToken {
        attach(EdgePanRecognizer(edges: edges, touches: touches), owner: nil, delay: delay, configure: configure) { if let g = EdgePanGesture($1) { try handler(g) } }
    }

    @discardableResult
    public func onEdgePan<Owner: AnyObject>(owner: Owner, _ edges: Set<Edge> = Set(Edge.allCases), touches: Int = 1,
                                            delay: Duration = .zero, configure: ((EdgePanRecognizer) -> Void)? = nil,
                                            _ handler: @escaping (Owner, EdgePanGesture) throws -> Void) -> GestureToken {
        attach(EdgePanRecognizer(edges: edges, touches: touches), owner: owner, delay: delay, configure: configure) {
            if let o = $0 as? Owner, let g = EdgePanGesture($1) { try handler(o, g) }
        }
    }

    private static func pan(_ minimumTouches: Int, _ maximumTouches: Int, _ axis: PanAxis?) -> PanRecognizer {
        let r = PanRecognizer(minimumTouches: minimumTouches, maximumTouches: maximumTouches)
        r.axis = axis
        return r
    }

    /// Pinch and rotate recognise together unless configured otherwise (AXKit's default).
    private static func pinch() -> PinchRecognizer {
        let r = PinchRecognizer()
        r.recognizeSimultaneously(with: .rotate)
        return r
    }

    private static func rotate() -> RotateRecognizer {
        let r = RotateRecognizer()
        r.recognizeSimultaneously(with: .pinch)
        return r
    }
}
