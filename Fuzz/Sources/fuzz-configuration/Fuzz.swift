import GestureTesting

/// libFuzzer's entry point: see ``FuzzEntryPoints/configuration(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntryPoints.configuration(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
