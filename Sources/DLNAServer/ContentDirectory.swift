import Foundation
import Library
import MediaIndex
import MediaModel

/// ContentDirectory:1's actions over one tree: Browse (metadata and direct children, paged and sorted),
/// Search (the UPnP grammar compiled onto the predicate AST), and the capabilities and update id.
struct ContentDirectory {
    let nodes: TreeNodes
    let writer: DIDLWriter
    /// Runs a compiled search over the library (the store's query; ids back).
    let search: (MediaModel.Predicate) throws -> [Int64]

    var tree: MediaTree { nodes.tree }

    static let sortCapabilities = "dc:title,dc:creator,dc:date,upnp:artist,upnp:album,upnp:originalTrackNumber,upnp:genre"

    func call(_ call: SOAPCall) throws -> [(String, SOAPValue)] {
        switch call.action {
        case "GetSearchCapabilities": return [("SearchCaps", .text(SearchCompiler.capabilities))]
        case "GetSortCapabilities": return [("SortCaps", .text(Self.sortCapabilities))]
        case "GetSystemUpdateID": return [("Id", .text(String(tree.updateID)))]
        case "Browse": return try browse(call.arguments)
        case "Search": return try searching(call.arguments)
        default: throw UPnPError.invalidAction
        }
    }

    /// A ui4 argument, XML white space around it allowed (and a `+`, as Swift's parsing takes). By its UTF-8
    /// bytes, digit by digit: Foundation's trimming bridged each argument to an NSString, a twentieth of a
    /// small Browse's time, and trimming the string's view and parsing a Substring still cost a thousand
    /// instructions an argument.
    static func number(_ arguments: SOAPArguments, _ name: String) throws -> Int {
        guard let text = arguments[name], let n = Self.unsigned(text) else {
            throw UPnPError.invalidArguments("\(name) must be a non-negative integer")
        }
        return Int(n)
    }

    private static func unsigned(_ text: String) -> UInt32? {
        var text = text
        return text.withUTF8 { utf8 -> UInt32? in
            var start = 0, end = utf8.count
            while start < end, SOAPEnvelopeReader.isSpace(utf8[start]) { start += 1 }
            while end > start, SOAPEnvelopeReader.isSpace(utf8[end - 1]) { end -= 1 }
            if start < end, utf8[start] == UInt8(ascii: "+") { start += 1 }
            guard start < end else { return nil }
            var value: UInt64 = 0
            for byte in utf8[start..<end] {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + UInt64(digit)
                guard value <= UInt64(UInt32.max) else { return nil }
            }
            return UInt32(value)
        }
    }

    private func browse(_ arguments: SOAPArguments) throws -> [(String, SOAPValue)] {
        guard let id = arguments["ObjectID"] else { throw UPnPError.invalidArguments("ObjectID is missing") }
        let start = try Self.number(arguments, "StartingIndex"), count = try Self.number(arguments, "RequestedCount")
        switch arguments["BrowseFlag"] {
        case "BrowseMetadata":
            guard start == 0 else { throw UPnPError.invalidArguments("StartingIndex must be 0 with BrowseMetadata") }
            guard let object = try nodes.object(id) else { throw UPnPError.noSuchObject }
            return try result([object], total: 1)
        case "BrowseDirectChildren":
            guard let children = try nodes.children(of: id) else {
                throw try nodes.object(id) == nil ? UPnPError.noSuchObject : UPnPError.invalidArguments("\(id) is not a container")
            }
            let criteria = arguments["SortCriteria"] ?? ""
            // Unsorted (what most control points ask): only the page is made.
            guard try !Self.sortKeys(criteria).isEmpty else {
                return try result(children.objects(Self.window(start: start, count: count, total: children.count)), total: children.count)
            }
            let sorted = try sort(children.all, criteria)
            return try result(page(sorted, start: start, count: count), total: sorted.count)
        default:
            throw UPnPError.invalidArguments("BrowseFlag must be BrowseMetadata or BrowseDirectChildren")
        }
    }

    private func page(_ objects: [TreeObject], start: Int, count: Int) -> ArraySlice<TreeObject> {
        objects[Self.window(start: start, count: count, total: objects.count)]
    }

    /// The page `StartingIndex`, `RequestedCount` of `total` objects (RequestedCount 0: all of them).
    private static func window(start: Int, count: Int, total: Int) -> Range<Int> {
        let from = min(start, total)
        return from..<(count == 0 ? total : min(total, from + count))
    }

    private func result(_ objects: some Collection<TreeObject>, total: Int) throws -> [(String, SOAPValue)] {
        [("Result", .escaped(try writer.document(objects))), ("NumberReturned", .text(String(objects.count))),
         ("TotalMatches", .text(String(total))), ("UpdateID", .text(String(tree.updateID)))]
    }

    /// Items found under `ContainerID` (every item of the library for `0`) matching the criteria, listed
    /// in that container's All Tracks / All Videos (so their ids browse back to an object).
    private func searching(_ arguments: SOAPArguments) throws -> [(String, SOAPValue)] {
        guard let container = arguments["ContainerID"], try nodes.object(container) != nil else { throw UPnPError.noSuchContainer }
        let start = try Self.number(arguments, "StartingIndex"), count = try Self.number(arguments, "RequestedCount")
        let compiled: SearchCompiler.Compiled
        do { compiled = try SearchCompiler.compile(SearchGrammar.parse(arguments["SearchCriteria"] ?? "*")) }
        catch let error as SearchGrammar.SyntaxError { throw UPnPError.badSearchCriteria(error.description) }
        catch let error as SearchCompiler.Unsupported { throw UPnPError.badSearchCriteria(error.description) }
        var objects: [TreeObject] = []
        if compiled.wantsContainers {
            objects += try (nodes.children(of: "1$albums")?.all ?? []).filter { compiled.acceptsContainer("object.container.album.musicAlbum", title: title(of: $0)) }
        }
        if compiled.wantsItems {
            let ids = try search(compiled.predicate)
            let scope = Set(try items(under: container))
            for id in ids {
                guard let item = tree.itemByID[id], scope.isEmpty || scope.contains(item) else { continue }
                let isVideo = tree.value(item, MediaTree.Slot.video) != nil
                let listing = isVideo ? "2$all" : "1$all"
                objects.append(.item(parentID: listing, persistentID: id, item: item))
            }
        }
        let sorted = try sort(objects, arguments["SortCriteria"] ?? "")
        return try result(page(sorted, start: start, count: count), total: sorted.count)
    }

    private func title(of object: TreeObject) -> String {
        switch object {
        case .container(let c): c.title
        case .item(_, _, let item): tree.title(item)
        }
    }

    /// The items at or under a container (empty: no restriction, for the root and the top containers).
    private func items(under id: String) throws -> [Int32] {
        if [ObjectID.root, ObjectID.music, ObjectID.video, ObjectID.folders].contains(id) { return [] }
        var found: [Int32] = []
        var stack = [id]
        while let next = stack.popLast() {
            for child in try nodes.children(of: next)?.all ?? [] {
                switch child {
                case .container(let c): stack.append(c.id)
                case .item(_, _, let item): found.append(item)
                }
            }
        }
        return found
    }

    /// SortCriteria: `+`/`-` property, comma-separated; unknown properties are ignored (as minidlna does).
    private static func sortKeys(_ criteria: String) throws -> [(String, Bool)] {
        try criteria.split(separator: ",").map { raw -> (String, Bool) in
            let text = raw.trimmingCharacters(in: .whitespaces)
            guard let sign = text.first else { throw UPnPError.badSortCriteria }
            if sign == "+" || sign == "-" { return (String(text.dropFirst()), sign == "+") }
            return (text, true)
        }.filter { Self.sortCapabilities.split(separator: ",").contains(Substring($0.0)) }
    }

    private func sort(_ objects: [TreeObject], _ criteria: String) throws -> [TreeObject] {
        let keys = try Self.sortKeys(criteria)
        guard !keys.isEmpty else { return objects }
        func key(_ object: TreeObject, _ property: String) -> (Int?, String) {
            switch object {
            case .container(let c): return (nil, property == "dc:title" ? c.title : (c.artist ?? ""))
            case .item(_, _, let item):
                switch property {
                case "dc:title": return (nil, tree.title(item))
                case "upnp:originalTrackNumber": return (tree.value(item, MediaTree.Slot.track).flatMap { Int($0) }, "")
                case "dc:date": return (nil, tree.value(item, MediaTree.Slot.date) ?? "")
                case "upnp:album": return (nil, tree.value(item, MediaTree.Slot.album) ?? "")
                case "upnp:genre": return (nil, tree.value(item, MediaTree.Slot.genre) ?? "")
                default: return (nil, tree.value(item, MediaTree.Slot.artist) ?? "")
                }
            }
        }
        let indexed = objects.enumerated().map { entry in (offset: entry.offset, object: entry.element, keys: keys.map { k in key(entry.element, k.0) }) }
        return indexed.sorted { a, b in
            for (i, k) in keys.enumerated() {
                let (x, y) = (a.keys[i], b.keys[i])
                if x.0 != y.0 {
                    // No track number sorts last either way.
                    guard let xn = x.0 else { return false }
                    guard let yn = y.0 else { return true }
                    return k.1 ? xn < yn : xn > yn
                }
                let order = x.1.localizedCaseInsensitiveCompare(y.1)
                if order != .orderedSame { return k.1 ? order == .orderedAscending : order == .orderedDescending }
            }
            return a.offset < b.offset
        }.map { $0.object }
    }
}
