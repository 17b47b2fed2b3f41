import GestureProtocol
import GesturedConfiguration
import Gestures

/// Socket clients' regions in a device's layout. Each client's are in a group of their own
/// (``Region/isGroup``, id `@<client number>`), over the service's regions — the later a
/// client registered its first region, the higher. A region is `@<client number>/<its id>`
/// inside the service: configuration ids cannot start with `@`, so no two clients' regions
/// and no region of the service's can be confused.
///
/// What a client does costs its own regions, never the others': adding, changing or
/// removing one re-indexes its group only for hit testing, finds regions by id in constant
/// time, and a client leaving takes its whole group out in one step.
package enum ClientRegions {
    /// The region id inside the service of a client's region `id`.
    package static func internalID(client: Int, id: String) -> String { "@\(client)/\(id)" }

    /// The id of the group that holds a client's regions.
    package static func groupID(client: Int) -> String { "@\(client)" }

    /// The client number of a group id made by ``groupID(client:)``.
    package static func groupNumber(_ id: String) -> Int? {
        guard id.hasPrefix("@") else { return nil }
        return Int(id.dropFirst())
    }

    /// The client number and the client's own id of a region id made by ``internalID(client:id:)``.
    package static func owner(of regionID: String) -> (client: Int, id: String)? {
        guard regionID.hasPrefix("@"), let slash = regionID.firstIndex(of: "/"),
              let n = Int(regionID[regionID.index(after: regionID.startIndex)..<slash]) else { return nil }
        return (n, String(regionID[regionID.index(after: slash)...]))
    }

    /// Adds the client's region `spec` to `layout`: inside its parent (one of the client's,
    /// already added), else in the client's group (added over everything when it has none).
    package static func install(_ spec: RegionRequest, client: Int, in layout: Layout) {
        let region = Region(id: internalID(client: client, id: spec.id), frame: spec.frame)
        apply(spec, to: region)
        for gesture in spec.gestures { region.add(gesture.makeRecognizer()) }
        let parent = spec.parent.flatMap { layout.region(internalID(client: client, id: $0)) } ?? group(client: client, in: layout)
        parent.addChild(region)
    }

    /// Gives the client's region with `spec`'s id its frame, insets and states.
    package static func update(_ spec: RegionRequest, client: Int, in layout: Layout) {
        guard let region = layout.region(internalID(client: client, id: spec.id)) else { return }
        apply(spec, to: region)
    }

    /// Takes the client's region `id` (and what is inside it) out of `layout`.
    package static func remove(_ id: String, client: Int, from layout: Layout) {
        layout.region(internalID(client: client, id: id))?.removeFromParent()
    }

    /// Takes every region of the client out of `layout` (its group).
    package static func removeAll(client: Int, from layout: Layout) {
        layout.region(groupID(client: client))?.removeFromParent()
    }

    /// The service's own regions of `layout`, depth first: every region but those in a
    /// client's group, which have no actions or conditions — so what the configuration's
    /// regions need (a focus change, a device's end) costs the configuration's size, however
    /// many regions clients hold.
    package static func configuredRegions(of layout: Layout) -> [Region] {
        var out: [Region] = []
        func walk(_ r: Region) {
            out.append(r)
            for c in r.children where !(c.isGroup && groupNumber(c.id) != nil) { walk(c) }
        }
        walk(layout.root)
        return out
    }

    /// The client's group in `layout`, added over everything there when it has none yet.
    private static func group(client: Int, in layout: Layout) -> Region {
        let id = groupID(client: client)
        if let group = layout.region(id) { return group }
        let group = Region(id: id, frame: Rect(x: 0, y: 0, width: layout.root.frame.width, height: layout.root.frame.height))
        group.isGroup = true
        layout.root.addChild(group)
        return group
    }

    private static func apply(_ spec: RegionRequest, to region: Region) {
        if region.frame != spec.frame { region.frame = spec.frame }
        if region.hitInsets != spec.hitInsets { region.hitInsets = spec.hitInsets }
        if region.isHidden != spec.hidden { region.isHidden = spec.hidden }
        if region.isEnabled != spec.enabled { region.isEnabled = spec.enabled }
    }
}
