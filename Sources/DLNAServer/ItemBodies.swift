import Synchronization

/// Each audio item's DIDL-Lite body (its elements between `<item …>` and `</item>`), in the answer's form,
/// kept per tree (a new tree after every scan: nothing kept goes stale) for each base URL and renderer the
/// bodies were written for. A client's walk lists every track in five to seven containers (its artist's
/// album, the album, its genre, its year, all tracks, its folder…) under the same body; writing it afresh
/// each time was most of a Browse's DIDL work (issue 43). Only the ids differ, and they are written outside.
/// Videos are not kept: their bodies name sidecar subtitles, which are looked up on disk at each answer.
/// Bounded: at most `budget` bytes for each of at most `variantLimit` variants; past the budget, bodies are
/// written as before and not kept.
final class ItemBodies: Sendable {
    /// What a body depends on besides the item and the tree: every URL in it starts with `baseURL`, and the
    /// renderer decides the transcoded `res` elements and their place.
    struct Variant: Hashable, Sendable {
        let baseURL: String
        let renderer: RendererProfile

        // A renderer by its name (unique in the table): hashing the whole profile, its codec sets, was a
        // twentieth of a small Browse's time on the event loop.
        static func == (a: Variant, b: Variant) -> Bool { a.baseURL == b.baseURL && a.renderer.name == b.renderer.name }

        func hash(into hasher: inout Hasher) {
            hasher.combine(baseURL)
            hasher.combine(renderer.name)
        }
    }

    static let budget = 8 << 20
    static let variantLimit = 4

    private let variants = Mutex<[Variant: Store]>([:])
    /// The view's item count: each store's array is made that long when it keeps its first body.
    private let items: Int

    init(items: Int) { self.items = items }

    /// The bodies of one variant (looked up once a page).
    func store(for variant: Variant) -> Store {
        variants.withLock { variants in
            if let store = variants[variant] { return store }
            if variants.count >= Self.variantLimit { variants.removeAll() }
            let store = Store(items: items)
            variants[variant] = store
            return store
        }
    }

    /// The bodies by view item number (an array of 8 bytes an item, as the view's own columns), looked up a
    /// page at a time (`bodies(of:)`): one item at a time, the lock and a dictionary's hashing and probing
    /// were a fortieth of a Browse's time on the event loop.
    final class Store: Sendable {
        private let state = Mutex<(bodies: [[UInt8]?], bytes: Int, count: Int)>(([], 0, 0))
        private let items: Int

        init(items: Int) { self.items = items }

        /// The bodies kept of the items among `objects`, in their order (nil where none is kept yet).
        func bodies(of objects: some Sequence<TreeObject>) -> [[UInt8]?] {
            state.withLock { state in
                objects.compactMap { object -> [UInt8]?? in
                    guard case .item(_, _, let item) = object else { return nil }
                    return .some(state.bodies.indices.contains(Int(item)) ? state.bodies[Int(item)] : nil)
                }
            }
        }

        /// Keeps `body` (made only when there is room for it) as `item`'s.
        func keep(_ body: @autoclosure () -> [UInt8], for item: Int32) {
            let at = Int(item)
            state.withLock { state in
                guard (0..<items).contains(at), state.bytes < ItemBodies.budget else { return }
                if state.bodies.isEmpty { state.bodies = Array(repeating: nil, count: items) }
                guard state.bodies[at] == nil else { return }
                let body = body()
                guard state.bytes + body.count <= ItemBodies.budget else { return }
                state.bodies[at] = body
                state.bytes += body.count
                state.count += 1
            }
        }

        var count: Int { state.withLock { $0.count } }
    }
}
