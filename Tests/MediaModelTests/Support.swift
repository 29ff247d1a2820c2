import MediaModel

/// An item with the given id and property values (path defaults to /m/<id>.mp3).
func makeItem(_ id: Int64, _ values: [MediaProperty: any MediaValueConvertible], path: String? = nil) -> MediaItem {
    var item = MediaItem(path: MediaPath(path ?? "/m/\(id).mp3"))
    item.persistentID = id
    for (p, v) in values { item[p] = v.mediaValue }
    return item
}

func parse(_ format: String) throws -> Predicate { try PredicateParser.parse(format) }

/// The ids of `items` matching a format string, in the input order.
func ids(_ format: String, in items: [MediaItem]) throws -> [Int64] {
    let e = try PredicateEvaluator(try parse(format))
    return items.filter(e.matches).map(\.persistentID)
}

func cmp(_ p: MediaProperty, _ op: Comparison.Operator, _ v: any MediaValueConvertible,
         _ options: Comparison.Options = []) -> Predicate {
    .comparison(Comparison(p, op, .value(v.mediaValue), options: options))
}
