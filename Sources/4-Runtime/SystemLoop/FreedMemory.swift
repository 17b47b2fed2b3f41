import CLinux

/// The C library's heap keeps memory a program freed for its next allocations; after a burst
/// (many clients gone with their regions) that can be tens of megabytes the process no
/// longer needs.
public enum FreedMemory {
    /// Gives what the heap holds free back to the system (`malloc_trim`). Takes time in
    /// proportion to the heap: for after a burst, not for every free.
    public static func release() {
        _ = gestured_release_freed_memory()
    }
}
