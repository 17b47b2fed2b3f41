import GestureProtocol
import GestureConfiguration
import Gestures

/// Socket clients' regions in one device's layout. Each client's are in a group of their own
/// (``Region/isGroup``) over the service's regions — the later a client registered its first
/// region, the higher. Every one of them carries its client as its namespace (``Region/namespace``)
/// and the client's own id for it: two clients may both have an `ok`, and neither is ever
/// confused with a region of the configuration's (the layout's id lookup leaves clients'
/// regions out).
///
/// What a client does costs its own regions, never the others': adding, changing or
/// removing one re-indexes its group only for hit testing, finds regions by id in constant
/// time (each client's by id here), and a client leaving takes its whole group out in one step.
package final class ClientRegions {
    package let layout: Layout
    /// Each client's group, by client number.
    private var groups: [Int: Region] = [:]
    /// Each client's regions in the layout, by the client's ids.
    private var regions: [Int: [String: Region]] = [:]

    package init(layout: Layout) {
        self.layout = layout
    }

    /// The client's region `id`, if it is in the layout.
    package func region(_ id: String, client: Int) -> Region? {
        regions[client]?[id]
    }

    /// Adds the client's region `spec` to the layout: inside its parent (one of the client's,
    /// already added), else in the client's group (added over everything when it has none).
    package func install(_ spec: RegionRequest, client: Int) {
        let region = Region(id: spec.id, frame: spec.frame)
        region.namespace = client
        Self.apply(spec, to: region)
        for gesture in spec.gestures { region.add(gesture.makeRecognizer()) }
        let parent = spec.parent.flatMap { self.region($0, client: client) } ?? group(client: client)
        parent.addChild(region)
        regions[client, default: [:]][spec.id] = region
    }

    /// Gives the client's region with `spec`'s id its frame, insets and states.
    package func update(_ spec: RegionRequest, client: Int) {
        guard let region = region(spec.id, client: client) else { return }
        Self.apply(spec, to: region)
    }

    /// Takes the client's region `id` (and what is inside it) out of the layout.
    package func remove(_ id: String, client: Int) {
        guard let region = region(id, client: client) else { return }
        region.removeFromParent()
        for r in region.subtree { regions[client]?[r.id] = nil }
    }

    /// Takes every region of the client out of the layout (its group).
    package func removeAll(client: Int) {
        groups.removeValue(forKey: client)?.removeFromParent()
        regions[client] = nil
    }

    /// The service's own regions of `layout`, depth first: every region but clients', which
    /// have no actions or conditions — so what the configuration's regions need (a focus
    /// change, a device's end) costs the configuration's size, however many regions clients
    /// hold.
    package static func configuredRegions(of layout: Layout) -> [Region] {
        layout.regionsOutsideNamespaces
    }

    /// The client's group, added over everything in the layout when it has none yet.
    private func group(client: Int) -> Region {
        if let group = groups[client] { return group }
        let group = Region(id: "client \(client)", frame: Rect(x: 0, y: 0, width: layout.root.frame.width, height: layout.root.frame.height))
        group.namespace = client
        group.isGroup = true
        layout.root.addChild(group)
        groups[client] = group
        return group
    }

    private static func apply(_ spec: RegionRequest, to region: Region) {
        if region.frame != spec.frame { region.frame = spec.frame }
        if region.hitInsets != spec.hitInsets { region.hitInsets = spec.hitInsets }
        if region.isHidden != spec.hidden { region.isHidden = spec.hidden }
        if region.isEnabled != spec.enabled { region.isEnabled = spec.enabled }
        region.isGestureExclusion = spec.exclusion
    }
}
