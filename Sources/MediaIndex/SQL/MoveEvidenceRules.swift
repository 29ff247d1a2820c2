import MediaModel

/// The evidence that a row added by a scan is an item that vanished, as data: one rule per kind, in SQL
/// both dialects run, over `v` (the vanished items: id, size, fingerprint, win, seeking), `o` (a vanished
/// item's own row) and `i` (a candidate row). `Moves` (MediaScanner) decides which kinds to ask for and how
/// to choose among the candidates; mlib(1) lists the same rules ("What keeps an item's identity").
package enum MoveEvidenceRules {
    package struct Rule: Sendable {
        /// Whether the rule reads the vanished item's row (`o`), not only what the scanner passed in `v`.
        package var readsOldRow: Bool
        /// Candidate `i` matches `o`/`v`.
        package var match: String
        /// What `o` must have for the rule to apply at all.
        package var requires: String
        /// Only rows added since the oldest sought window (the `items_added_gen` index finds them).
        package var recentRowsOnly: Bool
    }

    package static func rule(_ evidence: MoveCandidate.Evidence) -> Rule {
        switch evidence {
        case .sameFile:
            // The same inode and device, and one unchanged 16 KiB end: the file itself, retagged and renamed.
            Rule(readsOldRow: true,
                 match: "i.scan_inode = o.scan_inode AND i.scan_device IS NOT DISTINCT FROM o.scan_device AND (i.head_hash = o.head_hash OR i.tail_hash = o.tail_hash)",
                 requires: "o.scan_inode IS NOT NULL AND o.head_hash IS NOT NULL", recentRowsOnly: false)
        case .content:
            // The same size and fingerprint (through the `items_identity` index): the same bytes.
            Rule(readsOldRow: false, match: #"i."fileSize" = v.size AND i.fingerprint = v.fingerprint"#,
                 requires: "v.fingerprint IS NOT NULL", recentRowsOnly: false)
        case .audio:
            // One unchanged end, the same container and duration (within 50 ms): the same audio, retagged.
            Rule(readsOldRow: true,
                 match: #"(i.head_hash = o.head_hash OR i.tail_hash = o.tail_hash) AND i.container IS NOT DISTINCT FROM o.container AND abs(i."playbackDuration" - o."playbackDuration") < 0.05"#,
                 requires: "o.head_hash IS NOT NULL", recentRowsOnly: true)
        case .musicBrainz:
            Rule(readsOldRow: true, match: #"i."musicBrainzTrackID" = o."musicBrainzTrackID""#,
                 requires: #"o."musicBrainzTrackID" IS NOT NULL"#, recentRowsOnly: true)
        case .tags:
            // Title, artist, album, container and duration (within a second): a retag and a rename.
            Rule(readsOldRow: true,
                 match: #"i.title = o.title AND i.artist IS NOT DISTINCT FROM o.artist AND i."albumTitle" IS NOT DISTINCT FROM o."albumTitle" AND i.container IS NOT DISTINCT FROM o.container AND abs(i."playbackDuration" - o."playbackDuration") < 1.0"#,
                 requires: #"o.title IS NOT NULL AND o."playbackDuration" IS NOT NULL"#, recentRowsOnly: true)
        }
    }
}
