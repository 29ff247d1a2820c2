import MediaModel

// What `mlib analyze` measured: columns of `items` (SQLite "v12", PostgreSQL "pg v7"), written only here and
// cleared by the schema's trigger when a scan finds other audio (codec, rate, channels, depth, duration or
// a bit rate more than 10% off). Not file-derived: the scan's writes never name these columns.
extension SQLStore {
    public func storeAnalysis(_ analyses: [ItemAnalysis], album: AlbumGain?) throws {
        guard !analyses.isEmpty || !(album?.ids.isEmpty ?? true) else { return }
        try write { x in
            for a in analyses {
                if let fingerprint = a.fingerprint, let version = a.version {
                    try x.execute("""
                        UPDATE items SET "loudness" = \(a.loudness), "loudnessRange" = \(a.loudnessRange), "trackGain" = \(a.trackGain),
                            "trackPeak" = \(a.trackPeak), chromaprint = \(SQLValue.bytes(FingerprintBlob.bytes(fingerprint))),
                            "analysisVersion" = \(version)
                        WHERE id = \(a.id)
                        """)
                } else {
                    // Loudness only: the fingerprint and the version stay as they are.
                    try x.execute("""
                        UPDATE items SET "loudness" = \(a.loudness), "loudnessRange" = \(a.loudnessRange), "trackGain" = \(a.trackGain),
                            "trackPeak" = \(a.trackPeak)
                        WHERE id = \(a.id)
                        """)
                }
            }
            if let album, !album.ids.isEmpty {
                _ = try x.execute(#"UPDATE items SET "albumGain" = \#(album.gain), "albumPeak" = \#(album.peak) WHERE \#(syntax.isIn("id", .integers(album.ids)))"#)
            }
        }
    }

    public func fingerprints(ids: [Int64]) throws -> [Int64: [UInt32]] {
        guard !ids.isEmpty else { return [:] }
        return try read { x in
            var result: [Int64: [UInt32]] = [:]
            for row in try x.rows("SELECT id, chromaprint FROM items WHERE \(syntax.isIn("id", .integers(ids))) AND chromaprint IS NOT NULL") {
                if let id = row.int64(0), let bytes = row.values[1].bytes { result[id] = FingerprintBlob.values(bytes) }
            }
            return result
        }
    }
}
