extension Array {
    /// The index of the first element that `matches`, looked for at `hint` first: a frame's
    /// contacts come in the same order frame after frame, so where a contact was is where it
    /// usually is (the router's routes, the filter's reports, the tracker's touches). The same
    /// answer as the search where at most one element matches.
    @inline(__always)
    func firstIndex(hint: Int, where matches: (Element) -> Bool) -> Int? {
        hint < count && matches(self[hint]) ? hint : firstIndex(where: matches)
    }
}
