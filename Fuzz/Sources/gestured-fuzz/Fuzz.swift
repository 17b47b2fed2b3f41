#if canImport(Glibc)
import Glibc
#endif
import GestureFuzzing

/// The entry point GESTURED_FUZZ_TARGET names (see ``FuzzEntryPoints/entry(named:)``).
nonisolated(unsafe) var target: ([UInt8]) -> Void = { _ in }

/// libFuzzer's callback: each input goes to the chosen entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    target(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links an executable's entry point under this name: it picks the target, then hands
/// over to libFuzzer (which reads its own options from the arguments).
@_cdecl("gestured_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let name = getenv("GESTURED_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let entry = FuzzEntryPoints.entry(named: name) else {
        let message = "gestured-fuzz: set GESTURED_FUZZ_TARGET to one of: \(FuzzEntryPoints.names.joined(separator: ", "))\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        return 2
    }
    target = entry
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, fuzz)
}
