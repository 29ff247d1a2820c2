import MediaModel

extension ProbeResult {
    /// `mlib info --json` schema (documented in mlib(1)): {"path", "ok": true, "partial", "tagSource",
    /// "tagFormat", "warnings", "item": MediaItem JSON, "streams": [...], "pictures": [...],
    /// "chapters": [{"start", "end", "title"}]}.
    public var json: JSONValue {
        .object([
            ("path", item.path.json), ("ok", .bool(true)), ("partial", .bool(isPartial)),
            ("tagSource", .string(tagSource)), ("tagFormat", tagFormat.map(JSONValue.string) ?? .null),
            ("warnings", .array(warnings.map(JSONValue.string))),
            ("decodable", .bool(isDecodable)), ("undecodableReason", undecodableReason.map(JSONValue.string) ?? .null),
            ("item", item.json()),
            ("streams", .array(streams.map(\.json))),
            ("pictures", .array(pictures.map { .object([("mimeType", .string($0.mimeType)), ("type", .string($0.type)), ("size", .int(Int64($0.size)))]) })),
            ("chapters", .array(chapters.map { .object([("start", .double($0.start)), ("end", .double($0.end)), ("title", .string($0.title))]) })),
        ])
    }
}

extension ProbeError {
    /// {"path", "ok": false, "error": {"code", "message"}}.
    public var json: JSONValue {
        .object([("path", path.json), ("ok", .bool(false)),
                 ("error", .object([("code", .string(code)), ("message", .string(reason))]))])
    }
}

extension StreamInfo {
    public var json: JSONValue {
        var m: [(String, JSONValue)] = [("index", .int(Int64(index))), ("kind", .string(kind.rawValue)), ("codec", .string(codec))]
        func add(_ key: String, _ v: JSONValue?) { if let v { m.append((key, v)) } }
        add("codecLongName", codecLongName.map(JSONValue.string))
        add("profile", profile.map(JSONValue.string))
        add("duration", duration.map(JSONValue.double))
        add("bitRate", bitRate.map(JSONValue.int))
        add("sampleRate", sampleRate.map { .int(Int64($0)) })
        add("channels", channels.map { .int(Int64($0)) })
        add("channelLayout", channelLayout.map(JSONValue.string))
        add("bitDepth", bitDepth.map { .int(Int64($0)) })
        add("sampleFormat", sampleFormat.map(JSONValue.string))
        add("width", width.map { .int(Int64($0)) })
        add("height", height.map { .int(Int64($0)) })
        add("frameRate", frameRate.map(JSONValue.double))
        add("pixelFormat", pixelFormat.map(JSONValue.string))
        add("language", language.map(JSONValue.string))
        m.append(("attachedPicture", .bool(isAttachedPicture)))
        if let undecodable { m += [("decodable", .bool(false)), ("undecodableReason", .string(undecodable))] }
        add("codecTag", codecTag.map(JSONValue.string))
        return .object(m)
    }
}
