extension Array where Element: AnyObject {
    /// Calls `body` with each element, in order, without a reference count for each. Call it on
    /// a local `let` copy of the array you walk (`let walk = stored; walk.forEachUnretained { … }`):
    /// that copy holds the storage, and with it every element, for as long as the walk lasts,
    /// whatever `body` does to the stored array (changed, the stored array copies its storage
    /// first). Read one by one from a stored array, an element is retained and released around
    /// each call in case the call changes that array (about 40 instructions an element).
    ///
    /// The one use in the package of an underscored standard library call,
    /// `Unmanaged._withUnsafeGuaranteedRef`, which promises the compiler that the reference
    /// stays alive for the call (the local copy guarantees it). Measured 2026-11-29: the public
    /// `takeUnretainedValue()` in its place costs the instruction guard's workload 1.4 M
    /// instructions more (119.9 M → 121.3 M, +1.2%: a retain and release per member per frame
    /// of the arena's walk). Should the call go away, that is the replacement.
    /// `ArrayUnretainedTests` checks the walk: every element in order, each alive for its call,
    /// while the call changes or empties the stored array.
    @inline(__always)
    func forEachUnretained(_ body: (Element) -> Void) {
        withUnsafeBufferPointer { elements in
            guard let base = UnsafeRawPointer(elements.baseAddress) else { return }
            let stride = MemoryLayout<Element>.stride
            for i in 0..<elements.count {
                // A reference read as what it is, a pointer: no reference count.
                let element = base.load(fromByteOffset: i &* stride, as: Unmanaged<Element>.self)
                element._withUnsafeGuaranteedRef { body($0) }
            }
        }
    }
}
