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
        /// No row whose exact bytes (size and fingerprint) an item indexed before the vanished item's window
        /// also has: that row is a copy of the other file, wherever the other lies (outside a subtree scan's
        /// plan too), so anything weaker than the content is a guess (issue 24: a copy of A took B's item and
        /// rating by "the same audio"). Two new rows of the same bytes are two candidates (ambiguous: `Moves`).
        /// Not for the same file: the inode tells the original from its copies.
        package var refusesRowsWithAnExactTwin: Bool
        /// No row whose exact bytes another vanished item has: that row is that item copied, whatever its
        /// inode says (issue 24: `cp -r Old New; rm -rf Old` wrote one copy on another file's reused inode,
        /// and the two recordings of one audio swapped their ratings). The exact content comes first.
        package var yieldsToExactContent: Bool = false
        /// A row that `match` also pairs with an item still there (not vanished, not hidden, not an exact copy
        /// of the vanished item) is flagged (`MoveCandidate.matchesAPresentItem`) and pairs nothing: two
        /// releases of one recording share their audio bytes (and their MusicBrainz recording), so a new file
        /// with that audio may as well be a copy of the release that is still there as the deleted one moved
        /// (issue 47: a retagged copy of B took the deleted A's rating and plays). Uniqueness is judged among
        /// every indexed item, not only among the vanished ones and the new rows.
        package var yieldsToPresentItems: Bool = false
        /// How a row is matched with an item still there (`o`) for `yieldsToPresentItems`: the rule's own
        /// `match` when nil. The same file's is the same audio: an inode is the item's alone, but file
        /// systems hand a deleted file's inode number to the next new file (a retagged copy of the other
        /// release, in the issue's reproduction on ext4).
        package var presentItemMatch: String? = nil
        /// The rule's `match` requires the row's birth time (`scan_birth`, statx) to be the item's when both
        /// are known: an inode number is reused by file systems for the next new file, a birth time is not
        /// (issue 47, seed 12 of the model). Where either is unknown the candidate says so
        /// (`MoveCandidate.birthUnknown`) and `Moves` lets it yield to another vanished item's weaker claim.
        package var comparesBirth: Bool = false
    }

    /// The same file by its birth time, or not known to be another: the row's and the item's birth times
    /// (nanoseconds) are equal, or one of them is unknown.
    private static let sameBirth = "(i.scan_birth IS NULL OR o.scan_birth IS NULL OR i.scan_birth = o.scan_birth)"

    /// The kinds of evidence that may claim a row the same file also claims, when the birth time cannot
    /// tell a renamed file from a new one on a reused inode: another vanished item with one of these on
    /// that row leaves both unpaired (possible moves; `Moves.resolve`).
    package static let doubtOnAReusedInode: [MoveCandidate.Evidence] = [.audio, .payload]

    /// The order in which `Moves` asks for the kinds of evidence: strongest first, each asked only for the
    /// items the stronger ones left unpaired.
    package static let order: [MoveCandidate.Evidence] = MoveCandidate.Evidence.allCases

    /// The kinds of evidence that outrank the content when the row they find appeared in the scan that found
    /// the item gone, and the content's rows then or earlier: a file with a vanished item's exact bytes and
    /// a new one with its audio under new tags are a copy made before the retag and the file the user kept,
    /// retagged by a tagger that writes a new file (and renamed). The copy is the weaker claim (issue 47: 12
    /// events in which the copy took the rating and plays). Only when it is unambiguous: one such row, sought
    /// by that item alone, and the copies sought by that item alone (`Moves.preferringRetaggedOriginals`).
    /// When such rows are there but not that one clear row (its audio also an item's still there, such as
    /// another release; several rows; a row another vanished item may be), neither claim wins: a move by copy
    /// beside another new file of that audio leaves the same files; the item is a possible move. With no
    /// such row the content wins as before.
    package static let outrankSameScanCopies: [MoveCandidate.Evidence] = [.audio, .payload]

    /// A row `i` that has the audio of an item `o` (the same end, not zeros, or the same audio payload, with the
    /// same stream and duration): what `MoveCandidate.matchesAPresentItem` asks of an item still there, asked
    /// when a row is added and recorded (`possible_moves`, `SQLStore.recordPossibleMoves`). A row added while
    /// another item had its audio stays that item's possible copy after that item has left the library, so
    /// weaker evidence than the content never pairs it with a third (seeds 12 and 13 of the model: a retagged
    /// copy of One, added while One was there, took the deleted Two's item once One's root was forgotten).
    package static let sharedAudio = "((\(informativeEndMatches) AND \(sameAudioStream)) OR (i.payload_hash = o.payload_hash AND \(sameAudioStream)))"

    /// The end hashes of zero-filled windows (16 KiB, and the 2 KiB ends of a file under 32 KiB): digital
    /// silence, which every track that fades out ends with, and preallocated space. Equal ends of zeros say
    /// nothing about two files, so no rule takes them as evidence. (Fingerprint's hashes of zeros, frozen:
    /// `EvidenceStrengthTests` checks them.)
    package static let zeroFilledEndHashes: [Int64] = [8_878_643_107_911_905_155, 4_740_866_938_274_609_104]

    /// One end of `i` equal to the same end of `o`, an end of zeros excepted (`zeroFilledEndHashes`).
    private static let informativeEndMatches: String = {
        let zeros = zeroFilledEndHashes.map(String.init).joined(separator: ", ")
        return "((i.head_hash = o.head_hash AND o.head_hash NOT IN (\(zeros))) OR (i.tail_hash = o.tail_hash AND o.tail_hash NOT IN (\(zeros))))"
    }()

    /// The same container and audio stream (codec, rate, channels) and the same duration within 50 ms.
    private static let sameAudioStream = #"i.container IS NOT DISTINCT FROM o.container AND i."audioCodec" IS NOT DISTINCT FROM o."audioCodec" AND i."sampleRate" IS NOT DISTINCT FROM o."sampleRate" AND i.channels IS NOT DISTINCT FROM o.channels AND abs(i."playbackDuration" - o."playbackDuration") < 0.05"#

    package static func rule(_ evidence: MoveCandidate.Evidence) -> Rule {
        switch evidence {
        case .sameFile:
            // The same inode and device, the same birth time (when both are known), the same audio stream and
            // duration, and one unchanged 16 KiB end that is not zeros: the file itself, retagged and renamed.
            // The inode and an end alone are not enough: file systems hand a deleted file's inode number to the
            // next new file, and two tracks that end in silence have equal tails (issue 24: a new WAV album took
            // the deleted one's ratings), and two releases of one recording share their ends (issue 47, seed 12:
            // a retagged copy of the other release, written where the deleted one was, got its inode). The
            // birth time is the file's own: a new file on a reused inode has a later one.
            Rule(readsOldRow: true,
                 match: "i.scan_inode = o.scan_inode AND i.scan_device IS NOT DISTINCT FROM o.scan_device AND \(sameBirth) AND \(sameAudioStream) AND \(informativeEndMatches)",
                 requires: #"o.scan_inode IS NOT NULL AND o.head_hash IS NOT NULL AND o."playbackDuration" IS NOT NULL"#,
                 recentRowsOnly: false, refusesRowsWithAnExactTwin: false, yieldsToExactContent: true,
                 yieldsToPresentItems: true, presentItemMatch: "\(informativeEndMatches) AND \(sameAudioStream)",
                 comparesBirth: true)
        case .content:
            // The same size and fingerprint (through the `items_identity` index): the same bytes.
            Rule(readsOldRow: false, match: #"i."fileSize" = v.size AND i.fingerprint = v.fingerprint"#,
                 requires: "v.fingerprint IS NOT NULL", recentRowsOnly: false, refusesRowsWithAnExactTwin: false)
        case .audio:
            // One unchanged end that is not zeros, the same audio stream and duration: the same audio, retagged.
            Rule(readsOldRow: true, match: "\(informativeEndMatches) AND \(sameAudioStream)",
                 requires: #"o.head_hash IS NOT NULL AND o."playbackDuration" IS NOT NULL"#, recentRowsOnly: true,
                 refusesRowsWithAnExactTwin: true, yieldsToPresentItems: true)
        case .payload:
            // The same first 16 KiB of the audio payload, the same audio stream and duration, in the same
            // folder: a retag that rewrote both ends, and a rename (issue 24 case 6: ID3v2 + ID3v1, AIFF,
            // Matroska). The same folder, because the same audio under other tags elsewhere is as often
            // another release of the recording (an album's track on a compilation) as the file retagged.
            // The hash is never one of zeros (`AudioPayload` skips leading zeros and gives none for
            // silence); weaker than the content, unique only, never a row with an exact twin. It yields to an
            // item still there with that payload in any folder: the folder is this rule's guess, not what
            // makes the audio the item's (seed 8 of the model: a retagged copy of another release, written in
            // the deleted release's folder, took its item, the other release lying elsewhere).
            Rule(readsOldRow: true, match: "i.payload_hash = o.payload_hash AND i.dir = o.dir AND \(sameAudioStream)",
                 requires: #"o.payload_hash IS NOT NULL AND o."playbackDuration" IS NOT NULL"#, recentRowsOnly: true,
                 refusesRowsWithAnExactTwin: true, yieldsToPresentItems: true,
                 presentItemMatch: "i.payload_hash = o.payload_hash AND \(sameAudioStream)")
        case .musicBrainz:
            Rule(readsOldRow: true, match: #"i."musicBrainzTrackID" = o."musicBrainzTrackID""#,
                 requires: #"o."musicBrainzTrackID" IS NOT NULL"#, recentRowsOnly: true, refusesRowsWithAnExactTwin: true,
                 yieldsToPresentItems: true)
        case .tags:
            // Title, artist, album, container and duration (within a second): a retag and a rename.
            Rule(readsOldRow: true,
                 match: #"i.title = o.title AND i.artist IS NOT DISTINCT FROM o.artist AND i."albumTitle" IS NOT DISTINCT FROM o."albumTitle" AND i.container IS NOT DISTINCT FROM o.container AND abs(i."playbackDuration" - o."playbackDuration") < 1.0"#,
                 requires: #"o.title IS NOT NULL AND o."playbackDuration" IS NOT NULL"#, recentRowsOnly: true,
                 refusesRowsWithAnExactTwin: true, yieldsToPresentItems: true)
        }
    }
}
