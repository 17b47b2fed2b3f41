import GestureTesting

/// libFuzzer's entry point: see ``FuzzEntryPoints/libinputRecord(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntryPoints.libinputRecord(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
