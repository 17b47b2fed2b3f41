import GestureTesting

/// libFuzzer's entry point: see ``FuzzEntryPoints/evemu(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntryPoints.evemu(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
