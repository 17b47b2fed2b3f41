extension Array where Element: AnyObject {
    /// Calls `body` with each element, in order, without a reference count for each. Call it on
    /// a local `let` copy of the array you walk (`let walk = stored; walk.forEachUnretained { … }`):
    /// that copy holds the storage, and with it every element, for as long as the walk lasts,
    /// whatever `body` does to the stored array (changed, the stored array copies its storage
    /// first). Read one by one from a stored array, an element is retained and released around
    /// each call in case the call changes that array (about 40 instructions an element).
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
