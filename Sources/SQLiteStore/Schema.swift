import GRDB
import MediaIndex
import MediaModel

/// Named migrations, frozen: each step is the SQL it ran when it was released, never derived from the live
/// property table (a test upgrades a library made by mlib 0.1.0). A property added later gets its column,
/// its folded twin and a rebuilt full-text index from `addMissingPropertyColumns` until it has a step.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: items, roots, failures, playlists, FTS") { db in
            try db.execute(sql: """
                CREATE TABLE roots (
                    id INTEGER PRIMARY KEY,
                    path BLOB NOT NULL UNIQUE,
                    path_text TEXT NOT NULL,
                    added REAL NOT NULL)
                """)
            // Frozen: the schema as mlib 0.1.0 created it, its property columns rendered from `ReleasedSchema`
            // (a property added since has a step of its own, or `addMissingPropertyColumns`). AUTOINCREMENT: an
            // id is never reused, so a deleted item's id cannot come back as someone else's.
            try db.execute(sql: """
                CREATE TABLE items (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    path BLOB NOT NULL UNIQUE,
                    path_text TEXT NOT NULL,
                    dir BLOB NOT NULL,
                    tags TEXT,
                    \(ReleasedSchema.definitions(ReleasedSchema.firstPropertyColumns + ReleasedSchema.firstFoldedColumns, Schema.typeName))
                    scan_mtime INTEGER,
                    scan_inode INTEGER,
                    fingerprint INTEGER,
                    scan_failed INTEGER NOT NULL DEFAULT 0)
                """)
            for sql in Self.v1Indexes { try db.execute(sql: sql) }

            try db.execute(sql: """
                CREATE TABLE failures (
                    path BLOB PRIMARY KEY,
                    path_text TEXT NOT NULL,
                    dir BLOB NOT NULL,
                    size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    code TEXT NOT NULL,
                    message TEXT NOT NULL,
                    item_id INTEGER REFERENCES items(id) ON DELETE SET NULL,
                    seen REAL NOT NULL)
                """)
            try db.execute(sql: "CREATE INDEX failures_dir ON failures(dir)")

            try db.execute(sql: """
                CREATE TABLE playlists (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    query TEXT,
                    sort TEXT,
                    "limit" INTEGER,
                    created REAL NOT NULL,
                    modified REAL NOT NULL)
                """)
            try db.execute(sql: """
                CREATE TABLE playlist_entries (
                    playlist_id INTEGER NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    PRIMARY KEY (playlist_id, position))
                """)
            try db.execute(sql: "CREATE INDEX playlist_entries_item ON playlist_entries(item_id)")

            for sql in Self.v1FullTextSearch { try db.execute(sql: sql) }
        }
        QueryIndexes.register(in: &migrator)     // the query engineer's indexes (QueryIndexes.swift)
        migrator.registerMigration("v2: playlists mirror the playlist files found under roots") { db in
            // The exact path bytes of the file a playlist was imported from by a scan; NULL for the user's own.
            try db.execute(sql: "ALTER TABLE playlists ADD COLUMN source BLOB")
            try db.execute(sql: "CREATE UNIQUE INDEX playlists_source ON playlists(source) WHERE source IS NOT NULL")
        }
        migrator.registerMigration("v3: move-detection watermark") { db in
            // Rows with a larger id were added since the last complete scan: the candidates a vanished item
            // may have moved to. Kept across a killed scan, so the next one still pairs a move it began.
            try db.execute(sql: "CREATE TABLE scan_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID")
            try db.execute(sql: """
                INSERT INTO scan_state VALUES ('moveWatermark',
                    COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'items'), 0))
                """)
        }
        migrator.registerMigration("v4: identity: generations per root, devices, mount points, zero play counts") { db in
            // A counter bumped by each scan that adds rows; a row remembers the generation that added it, a
            // root the generation at which it was last walked completely. A vanished item under a root may
            // have moved to any row added since: the window is per root, so a scan of another root (or of a
            // subtree) no longer closes it, and a killed scan's rows stay candidates.
            try db.execute(sql: "ALTER TABLE items ADD COLUMN added_gen INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "ALTER TABLE items ADD COLUMN scan_device INTEGER")
            try db.execute(sql: "ALTER TABLE items ADD COLUMN head_hash INTEGER")
            try db.execute(sql: "ALTER TABLE items ADD COLUMN tail_hash INTEGER")
            // Set when a scan that did not walk every root lost sight of the item: hidden from every query, but
            // kept with its id and user data until a scan of all roots shows it gone (it may have moved to a
            // root that was not walked); a later scan that finds it again clears it.
            try db.execute(sql: "ALTER TABLE items ADD COLUMN missing_gen INTEGER")
            try db.execute(sql: "CREATE INDEX items_missing ON items(missing_gen) WHERE missing_gen IS NOT NULL")
            try db.execute(sql: "CREATE INDEX items_inode ON items(scan_inode)")
            try db.execute(sql: "CREATE INDEX items_added_gen ON items(added_gen)")
            try db.execute(sql: "ALTER TABLE roots ADD COLUMN complete_gen INTEGER NOT NULL DEFAULT 0")
            // Mount points seen under each root by its last complete walk: one that is no longer a mount
            // point (an unmounted disk) hides its items; they are not taken as deleted.
            try db.execute(sql: "CREATE TABLE mounts (path BLOB PRIMARY KEY, device INTEGER NOT NULL) WITHOUT ROWID")
            try db.execute(sql: "INSERT INTO scan_state VALUES ('generation', 1)")
            try db.execute(sql: """
                UPDATE items SET added_gen = 1
                WHERE id > COALESCE((SELECT value FROM scan_state WHERE key = 'moveWatermark'), 0)
                """)
            try db.execute(sql: "DELETE FROM scan_state WHERE key = 'moveWatermark'")
            // MPMediaItem's playCount and skipCount are 0, never nil: `plays:0` finds the never-played.
            try db.execute(sql: "UPDATE items SET playCount = COALESCE(playCount, 0), skipCount = COALESCE(skipCount, 0)")
        }
        migrator.registerMigration("v5: per-root exclude lists") { db in
            // Patterns as in a .mlibignore at the root, one per line (`mlib root exclude`).
            try db.execute(sql: "ALTER TABLE roots ADD COLUMN excludes TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v6: file type, partial reads, chapter count") { db in
            // The clean file type (mp3, m4a, m4b, mkv, opus…) that queries, stats and ls use; `container` keeps
            // FFmpeg's demuxer list. Rows from before are typed from their container and extension (the next
            // scan that reads them again decides from the content).
            try db.execute(sql: #"ALTER TABLE items ADD COLUMN "fileType" TEXT"#)
            // A file read only in part (damaged, truncated, a tag with no audio): 1, with the first reason.
            try db.execute(sql: #"ALTER TABLE items ADD COLUMN "isPartial" INTEGER"#)
            try db.execute(sql: #"ALTER TABLE items ADD COLUMN "partialReason" TEXT"#)
            // Chapters (M4B/MP4, Matroska, ID3v2 CHAP); NULL when the file has none.
            try db.execute(sql: #"ALTER TABLE items ADD COLUMN "chapterCount" INTEGER"#)
            try db.execute(sql: #"CREATE INDEX "items_fileType" ON items("fileType")"#)
            try db.execute(sql: #"CREATE INDEX "items_isPartial" ON items("isPartial") WHERE "isPartial" = 1"#)
            try db.execute(sql: #"""
                UPDATE items SET "fileType" = CASE
                    WHEN container LIKE 'mov,%' THEN CASE
                        WHEN lower(path_text) LIKE '%.m4b' THEN 'm4b'
                        WHEN "videoCodec" IS NOT NULL THEN 'mp4'
                        ELSE 'm4a' END
                    WHEN container = 'matroska,webm' THEN CASE WHEN lower(path_text) LIKE '%.webm' THEN 'webm' ELSE 'mkv' END
                    WHEN container = 'ogg' AND "audioCodec" = 'opus' THEN 'opus'
                    WHEN container = 'mpc8' THEN 'mpc'
                    WHEN container = 'asf' THEN CASE WHEN "videoCodec" IS NOT NULL THEN 'wmv' ELSE 'wma' END
                    WHEN container LIKE '%,%' THEN substr(container, 1, instr(container, ',') - 1)
                    ELSE container END
                """#)
        }
        migrator.registerMigration("v7: folded columns recomputed with transliteration (ð, þ, æ, ø, ß, œ, ł…)") { db in
            // TextFolding now spells letters without a decomposition in Latin (Guðnadóttir → gudnadottir):
            // the stored folded text of every item is recomputed with it. The update trigger keeps the
            // full-text index in step (it deletes the old folded words and indexes the new ones).
            try db.execute(sql: """
                UPDATE items SET
                    "title_folded" = mlib_fold("title", 3),
                    "albumTitle_folded" = mlib_fold("albumTitle", 3),
                    "artist_folded" = mlib_fold("artist", 3),
                    "albumArtist_folded" = mlib_fold("albumArtist", 3),
                    "genre_folded" = mlib_fold("genre", 3),
                    "composer_folded" = mlib_fold("composer", 3)
                """)
        }
        migrator.registerMigration("v8: tag ratings") { db in
            // The rating a file's tags carry (POPM, RATING, FMPS_RATING, MP4 rate; 0–5), beside the user's own
            // `rating`, which it never overwrites: the rating shown and queried is the user's, else the tag's.
            // Rows read before have none until their file is read again; nothing else changes, nothing is lost.
            if try !db.columns(in: "items").contains(where: { $0.name == "tagRating" }) {
                try db.execute(sql: #"ALTER TABLE items ADD COLUMN "tagRating" INTEGER"#)
            }
            // `rating:4`, `--sort rating` compare this expression (`ItemRow.valueExpression(.rating)`).
            try db.execute(sql: #"CREATE INDEX "items_rating_shown" ON items(COALESCE("rating", "tagRating"))"#)
        }
        migrator.registerMigration("v9: reader version of each item and failure") { db in
            // The `MediaProbe.readerVersion` that read the file; NULL for rows of an mlib that did not record
            // it. A scan reads again the unchanged files an older reader read (and retries its refusals).
            try db.execute(sql: "ALTER TABLE items ADD COLUMN reader_version INTEGER")
            try db.execute(sql: "ALTER TABLE failures ADD COLUMN reader_version INTEGER")
        }
        migrator.registerMigration("v10: partial indexes of multi-valued properties") { db in
            // Equality on artist, albumArtist, genre, composer reads rows holding one value by the folded
            // column's index and rows holding several ("Rock; Jazz") by these, which hold only those rows
            // (QueryCompiler.eachValue, whose `multiValuedRow` is written as their WHERE). Indexes only: nothing
            // stored changes. Frozen as released.
            for p in ReleasedSchema.firstMultiValuedProperties {
                try db.execute(sql: """
                    CREATE INDEX IF NOT EXISTS "items_\(p)_values" ON items("\(p)_folded", "\(p)") WHERE instr("\(p)", '; ') > 0
                    """)
            }
        }
        migrator.registerMigration("v11: item change log") { db in
            // Which items changed since a reader's token (`ItemChangeLog`, read by the live view): per item its
            // last write's token, kept by triggers so that every writer (scans, moves, folds, user data,
            // removals, root moves) and every process is logged without knowing it. A token is the highest so
            // far plus one, found through the token index (SQLite has one writer: commit order is token order).
            // An upsert, not INSERT OR REPLACE (a delete and an insert): an UPDATE of 20,000 rows took 0.12 s
            // with it, 0.15–0.19 s with REPLACE, 0.055 s with no log. Frozen as released.
            try db.execute(sql: """
                CREATE TABLE item_changes (item_id INTEGER PRIMARY KEY, token INTEGER NOT NULL);
                CREATE INDEX item_changes_token ON item_changes(token);
                CREATE TRIGGER item_changes_insert AFTER INSERT ON items BEGIN
                    INSERT INTO item_changes (item_id, token) VALUES (NEW.id, coalesce((SELECT max(token) FROM item_changes), 0) + 1)
                        ON CONFLICT (item_id) DO UPDATE SET token = excluded.token;
                END;
                CREATE TRIGGER item_changes_update AFTER UPDATE ON items BEGIN
                    INSERT INTO item_changes (item_id, token) VALUES (NEW.id, coalesce((SELECT max(token) FROM item_changes), 0) + 1)
                        ON CONFLICT (item_id) DO UPDATE SET token = excluded.token;
                END;
                CREATE TRIGGER item_changes_delete AFTER DELETE ON items BEGIN
                    INSERT INTO item_changes (item_id, token) VALUES (OLD.id, coalesce((SELECT max(token) FROM item_changes), 0) + 1)
                        ON CONFLICT (item_id) DO UPDATE SET token = excluded.token;
                END;
                """)
        }
        // Issue 28: what `mlib analyze` measures (`MediaProperty.analysis`) and the Chromaprint fingerprint (raw,
        // little-endian 32-bit values), with an index for `--sort loudness` and the trigger that clears them all
        // when a scan finds other audio: codec, rate, channels or depth changed, the duration by more than 50 ms,
        // or the bit rate by more than 10% (MP3 bit rate steps differ by 12.5% or more; a retag's cover art moves
        // a size-based FLAC bit rate by a few %). A retag, a rescan or a move (the row keeps its id) keeps them.
        migrator.registerMigration("v12: loudness and fingerprint analysis") { db in
            try db.execute(sql: """
                ALTER TABLE items ADD COLUMN "trackGain" REAL;
                ALTER TABLE items ADD COLUMN "trackPeak" REAL;
                ALTER TABLE items ADD COLUMN "albumGain" REAL;
                ALTER TABLE items ADD COLUMN "albumPeak" REAL;
                ALTER TABLE items ADD COLUMN "loudness" REAL;
                ALTER TABLE items ADD COLUMN "loudnessRange" REAL;
                ALTER TABLE items ADD COLUMN "analysisVersion" INTEGER;
                ALTER TABLE items ADD COLUMN chromaprint BLOB;
                CREATE INDEX items_loudness ON items("loudness");
                CREATE TRIGGER items_audio_changed
                    AFTER UPDATE OF "audioCodec", "sampleRate", "channels", "bitDepth", "playbackDuration", "bitRate" ON items
                    WHEN new."analysisVersion" IS NOT NULL AND (old."audioCodec" IS NOT new."audioCodec"
                        OR old."sampleRate" IS NOT new."sampleRate" OR old."channels" IS NOT new."channels"
                        OR old."bitDepth" IS NOT new."bitDepth"
                        OR abs(COALESCE(old."playbackDuration", -1) - COALESCE(new."playbackDuration", -1)) > 0.05
                        OR abs(COALESCE(old."bitRate", 0) - COALESCE(new."bitRate", 0)) > 0.1 * COALESCE(old."bitRate", 0))
                BEGIN
                    UPDATE items SET "trackGain" = NULL, "trackPeak" = NULL, "albumGain" = NULL, "albumPeak" = NULL,
                        "loudness" = NULL, "loudnessRange" = NULL, "analysisVersion" = NULL, chromaprint = NULL
                    WHERE id = new.id;
                END
                """)
        }
        migrator.registerMigration("v13: users, stars, play queues") { db in
            // The API server's accounts (`mlib user`, `mlib serve --http`): the password encrypted with the
            // key file beside the library (Subsonic's token auth needs it recoverable), an OpenSubsonic API
            // key; per user, what they starred (songs by item id, albums and artists by their derived ids)
            // and their saved play queue. Frozen as released.
            try db.execute(sql: ReleasedSchema.render(ReleasedSchema.usersTables, plainText: "TEXT", primaryKey: "PRIMARY KEY NOT NULL",
                                                      Schema.typeName))
        }
        migrator.registerMigration("v14: audio payload hash") { db in
            // Issue 24 case 6: the hash of the first 16 KiB of the audio payload (after the head's tags), which
            // a retag that rewrites both ends of a file leaves as it was; `MoveEvidenceRules`' `.payload`.
            // Rows from before have none until their file is read again (a changed file, or a newer reader):
            // no full re-read is forced, and until then such an item is found as before (not by this rule).
            try db.execute(sql: "ALTER TABLE items ADD COLUMN payload_hash INTEGER")
        }
        migrator.registerMigration("v15: declared duration of truncated files") { db in
            // Issue 25's truncation rule: `playbackDuration` is the audio present, the length a cut file's
            // header declares is kept here (NULL for a whole file). Rows read before have none until their
            // file is read again (the reader version changed with the rule). A library opened by a build
            // that added the column itself (`addMissingPropertyColumns`) has it already.
            if try !db.columns(in: "items").contains(where: { $0.name == "declaredDuration" }) {
                try db.execute(sql: #"ALTER TABLE items ADD COLUMN "declaredDuration" REAL"#)
            }
        }
        migrator.registerMigration("v16: playlist owners and visibility") { db in
            // Issue 37: a playlist made through the API belongs to its user and is private until made public
            // (`StoredPlaylist.isVisible(to:admin:)`). Every playlist from before has no owner: the library's,
            // public (read-only through the API for users who are not admins), its id and entries untouched
            // (two ALTERs, no table rebuild). Names stay unique in the library. A user removed hands their
            // playlists to the library (ON DELETE SET NULL), still private: admins see them.
            try db.execute(sql: """
                ALTER TABLE playlists ADD COLUMN owner TEXT REFERENCES users(name) ON DELETE SET NULL ON UPDATE CASCADE;
                ALTER TABLE playlists ADD COLUMN is_public INTEGER NOT NULL DEFAULT 1;
                CREATE INDEX playlists_owner ON playlists(owner);
                """)
        }
        migrator.registerMigration("v17: listening history") { db in
            // Issue 40: one row per play and per skip (`Listen`): the item, whose (NULL: the library's owner),
            // when, seconds heard (NULL when the front cannot know), by which front, written with the item's
            // counters in one transaction (`SQLStore.recordListen`). No foreign key to items: a removed item's
            // history stays, orphaned (ids are never reused: AUTOINCREMENT); none to users either: a removed
            // user's listens stay under their name. The counters of every existing item are kept as they are
            // (no history is invented for them). Indexes: the newest first (`mlib history`), an item's listens.
            try db.execute(sql: """
                CREATE TABLE history (
                    id INTEGER PRIMARY KEY,
                    item_id INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    played_at REAL NOT NULL,
                    heard REAL,
                    front TEXT NOT NULL,
                    user_name TEXT);
                CREATE INDEX history_played_at ON history(played_at, id);
                CREATE INDEX history_item ON history(item_id, played_at);
                """)
        }
        migrator.registerMigration("v18: users and per-user data") { db in
            // Issue 40: every library has one owner, whose ratings, plays, skips and last played are the
            // items' own columns (so this step keeps every value as the owner's, and the scan's hot path does
            // not change); every other user's are rows of `user_item_data`, which follow the item id (a move
            // keeps the id; a removed item takes them along, as it takes its own columns). The owner may be
            // an account (`is_owner`, at most one): in a library that has accounts, the first admin made
            // (else the first account made), so a household's server keeps showing its values to the one who
            // set it up; a library without accounts has an owner with no account (the CLI's user).
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN is_owner INTEGER NOT NULL DEFAULT 0;
                UPDATE users SET is_owner = 1 WHERE name = (SELECT name FROM users ORDER BY admin DESC, created, name LIMIT 1);
                CREATE UNIQUE INDEX users_owner ON users(is_owner) WHERE is_owner = 1;
                CREATE TABLE user_item_data (
                    user_name TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE ON UPDATE CASCADE,
                    item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    rating INTEGER,
                    play_count INTEGER NOT NULL DEFAULT 0,
                    skip_count INTEGER NOT NULL DEFAULT 0,
                    last_played REAL,
                    PRIMARY KEY (user_name, item_id));
                CREATE INDEX user_item_data_item ON user_item_data(item_id);
                """)
        }
        migrator.registerMigration("v19: decodable") { db in
            // Issue 49: whether this FFmpeg can decode the item, and why not ("this FFmpeg cannot decode ac-4").
            // Existing rows read as decodable, DEFAULT 1 (no row rewritten, no value changed): nearly all are,
            // and the few an older mlib indexed without knowing (AC-4 and MPEG-H since issue 49's first round)
            // are read again by the next scan (readerVersion 5), as are the files it refused: then 0 and the
            // reason, ids and user data kept. Indexed where 0: `decodable == NO`.
            // A library opened by a build that added the columns itself (`addMissingPropertyColumns`) has
            // them already; its rows are then given the default here.
            let columns = Set(try db.columns(in: "items").map(\.name))
            if columns.contains("isDecodable") {
                try db.execute(sql: #"UPDATE items SET "isDecodable" = 1 WHERE "isDecodable" IS NULL"#)
            } else {
                try db.execute(sql: #"ALTER TABLE items ADD COLUMN "isDecodable" INTEGER DEFAULT 1"#)
            }
            if !columns.contains("undecodableReason") {
                try db.execute(sql: #"ALTER TABLE items ADD COLUMN "undecodableReason" TEXT"#)
            }
            try db.execute(sql: #"CREATE INDEX "items_isDecodable" ON items("isDecodable") WHERE "isDecodable" = 0"#)
        }
        migrator.registerMigration("v20: lyrics and bookmarks") { db in
            // Issue 41. Every set of lyrics a file has (its tags' USLT/SYLT/LYRICS…, the `.elrc`/`.lrc`/`.txt`
            // sidecars beside it), one row each in the reader's order, read by the scan: `body` is the set as
            // MediaProbe's `Lyrics` JSON (lines with their times, word times, headers, the offset applied),
            // `text` its plain text; a sidecar's path, size, mtime and inode, so that a rescan sees one added,
            // changed or removed beside an unchanged audio file. The rows are file data: they follow the item
            // id (a move keeps it, a fold hands the row's to the item) and go with the item (ON DELETE CASCADE).
            // `hasLyrics`, `hasSyncedLyrics`, `lyricsLanguage`: the queryable summary, item columns the scan
            // writes with the others; NULL for rows read before (an older reader: the next scan reads them).
            // Bookmarks (Subsonic's model, and `mlib play`'s resume): one position per user and item, in ms,
            // with a comment; user '' is the library's owner without an account (the CLI's user). They are
            // user data: they follow the item id and go with it; a fold carries the row's when the item has none.
            // Additive only: no existing value changes.
            let columns = Set(try db.columns(in: "items").map(\.name))
            if !columns.contains("hasLyrics") { try db.execute(sql: #"ALTER TABLE items ADD COLUMN "hasLyrics" INTEGER"#) }
            if !columns.contains("hasSyncedLyrics") { try db.execute(sql: #"ALTER TABLE items ADD COLUMN "hasSyncedLyrics" INTEGER"#) }
            if !columns.contains("lyricsLanguage") { try db.execute(sql: #"ALTER TABLE items ADD COLUMN "lyricsLanguage" TEXT"#) }
            try db.execute(sql: """
                CREATE INDEX "items_hasLyrics" ON items("hasLyrics") WHERE "hasLyrics" = 1;
                CREATE TABLE lyrics (
                    item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    ordinal INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    origin TEXT,
                    language TEXT,
                    synced INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    body TEXT NOT NULL,
                    sidecar_path BLOB,
                    sidecar_size INTEGER,
                    sidecar_mtime INTEGER,
                    sidecar_inode INTEGER,
                    PRIMARY KEY (item_id, ordinal));
                CREATE TABLE bookmarks (
                    user_name TEXT NOT NULL,
                    item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    position_ms INTEGER NOT NULL,
                    comment TEXT,
                    created REAL NOT NULL,
                    changed REAL NOT NULL,
                    PRIMARY KEY (user_name, item_id));
                CREATE INDEX bookmarks_item ON bookmarks(item_id);
                """)
        }
        migrator.registerMigration("v21: possible moves") { db in
            // Issue 47: which items had a row's audio when the row was added (`MoveEvidenceRules.sharedAudio`).
            // A row with another item's audio may be a copy of that item (another release of the recording)
            // as well as a vanished item moved; once the other item has left the library nothing shows that
            // any more, and the row took the vanished item with its rating and plays (seeds 12 and 13 of the
            // model). `item_id` is kept after that item is gone (no reference); the row's records go with
            // the row. A new table: no existing value changes; a library upgraded has no records, as before.
            try db.execute(sql: """
                CREATE TABLE possible_moves (
                    row_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    item_id INTEGER NOT NULL,
                    generation INTEGER NOT NULL,
                    PRIMARY KEY (row_id, item_id));
                """)
        }
        migrator.registerMigration("v22: possible moves by content") { db in
            // Issue 47: the records of "v21" kept by the row's content (size and fingerprint) as well. A root
            // forgotten and added back deletes its rows and, with them, their records; the same file indexed
            // again is a new row, and nothing showed any more that another item had had its audio: a
            // possible move took it (seed 10 of the model, step 288). `item_id` has no reference, as in v21.
            // A new table; the records a library already has are copied to it under their rows' content.
            try db.execute(sql: """
                CREATE TABLE possible_moves_by_content (
                    size INTEGER NOT NULL,
                    fingerprint INTEGER NOT NULL,
                    item_id INTEGER NOT NULL,
                    generation INTEGER NOT NULL,
                    PRIMARY KEY (size, fingerprint, item_id));
                INSERT INTO possible_moves_by_content (size, fingerprint, item_id, generation)
                    SELECT i."fileSize", i.fingerprint, p.item_id, max(p.generation) FROM possible_moves p JOIN items i ON i.id = p.row_id
                    WHERE i."fileSize" IS NOT NULL AND i.fingerprint IS NOT NULL
                    GROUP BY i."fileSize", i.fingerprint, p.item_id;
                """)
        }
        migrator.registerMigration("v23: radio stations and shares") { db in
            // Issue 42. Internet radio stations (Subsonic's `internetRadioStation`): library-wide, ids never
            // reused (AUTOINCREMENT). Shares (public links, `ShareLink`): a random id, the account that made it
            // (its shares go with it), a description, an expiry, visits; the items shared, in order, by item id:
            // they follow the item (a move keeps the id; a fold carries them) and go with it. And the play
            // queue's current index (OpenSubsonic's `indexBasedQueue`: a queue may hold one song twice, which
            // `current`, an item id, cannot tell apart); NULL for queues saved before, read as the first entry
            // that is `current`. Additive only: no existing value changes.
            try db.execute(sql: """
                CREATE TABLE radio_stations (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    stream_url TEXT NOT NULL,
                    home_page_url TEXT,
                    created REAL NOT NULL,
                    changed REAL NOT NULL);
                CREATE TABLE share_links (
                    id TEXT NOT NULL PRIMARY KEY,
                    user_name TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE ON UPDATE CASCADE,
                    description TEXT,
                    created REAL NOT NULL,
                    expires REAL,
                    last_visited REAL,
                    visit_count INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX share_links_user ON share_links(user_name);
                CREATE TABLE share_link_items (
                    share_id TEXT NOT NULL REFERENCES share_links(id) ON DELETE CASCADE,
                    ordinal INTEGER NOT NULL,
                    item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    PRIMARY KEY (share_id, ordinal));
                CREATE INDEX share_link_items_item ON share_link_items(item_id);
                ALTER TABLE play_queues ADD COLUMN current_index INTEGER;
                """)
        }
        migrator.registerMigration("v24: file birth times") { db in
            // Issue 47, seed 12 of the model: each read file's birth time (statx, nanoseconds), so that the
            // same-file rule (`MoveEvidenceRules`' `.sameFile`) tells a file renamed and retagged in place
            // from a new file that the file system put on a deleted file's inode number. NULL for rows read
            // before (until their file is read again) and where the file system gives none: the rule then
            // holds as before. Additive only.
            try db.execute(sql: "ALTER TABLE items ADD COLUMN scan_birth INTEGER")
        }
        return migrator
    }

    /// SQLite's type for a column (columns compare by bytes: BINARY, the default).
    static func typeName(_ type: SQLColumnType) -> String {
        switch type {
        case .text: "TEXT"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .bytes: "BLOB"
        }
    }

    /// v1's indexes, as mlib 0.1.0 created them.
    static let v1Indexes: [String] = [
        #"CREATE INDEX items_dir ON items(dir)"#,
        #"CREATE INDEX items_identity ON items(fileSize, fingerprint)"#,
        #"CREATE INDEX items_path_text ON items(path_text)"#,
    ] + ReleasedSchema.firstFoldedIndexes + [
        #"CREATE INDEX "items_mediaType" ON items("mediaType")"#,
        #"CREATE INDEX "items_year" ON items("year")"#,
        #"CREATE INDEX "items_dateAdded" ON items("dateAdded")"#,
        #"CREATE INDEX "items_lastPlayedDate" ON items("lastPlayedDate")"#,
        #"CREATE INDEX "items_playCount" ON items("playCount")"#,
        #"CREATE INDEX "items_rating" ON items("rating")"#,
        #"CREATE INDEX "items_container" ON items("container")"#,
    ]

    /// v1's full-text index over the folded searchable columns of 0.1.0, and the triggers that keep it in step.
    static let v1FullTextSearch: [String] = [
        """
        CREATE VIRTUAL TABLE items_fts USING fts5("title", "albumTitle", "artist", "albumArtist", "genre", "composer", content='items', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2')
        """,
        """
        CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
            INSERT INTO items_fts(rowid, "title", "albumTitle", "artist", "albumArtist", "genre", "composer") VALUES (new.id, new."title_folded", new."albumTitle_folded", new."artist_folded", new."albumArtist_folded", new."genre_folded", new."composer_folded");
        END
        """,
        """
        CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
            INSERT INTO items_fts(items_fts, rowid, "title", "albumTitle", "artist", "albumArtist", "genre", "composer") VALUES ('delete', old.id, old."title_folded", old."albumTitle_folded", old."artist_folded", old."albumArtist_folded", old."genre_folded", old."composer_folded");
        END
        """,
        """
        CREATE TRIGGER items_fts_update AFTER UPDATE OF "title_folded", "albumTitle_folded", "artist_folded", "albumArtist_folded", "genre_folded", "composer_folded" ON items BEGIN
            INSERT INTO items_fts(items_fts, rowid, "title", "albumTitle", "artist", "albumArtist", "genre", "composer") VALUES ('delete', old.id, old."title_folded", old."albumTitle_folded", old."artist_folded", old."albumArtist_folded", old."genre_folded", old."composer_folded");
            INSERT INTO items_fts(rowid, "title", "albumTitle", "artist", "albumArtist", "genre", "composer") VALUES (new.id, new."title_folded", new."albumTitle_folded", new."artist_folded", new."albumArtist_folded", new."genre_folded", new."composer_folded");
        END
        """,
    ]

    /// `items_fts` indexes the folded searchable columns (external content: no second copy of the text).
    /// Triggers keep it in step; an update that leaves those columns alone (a move) does not touch it.
    static func createFullTextSearch(_ db: Database) throws {
        let names = ItemRow.searchable.map { ItemRow.quoted($0.rawValue) }.joined(separator: ", ")
        let new = ItemRow.searchable.map { "new." + ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
        let old = ItemRow.searchable.map { "old." + ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
        let folded = ItemRow.searchable.map { ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
        try db.execute(sql: """
            CREATE VIRTUAL TABLE items_fts USING fts5(\(names), content='items', content_rowid='id',
                tokenize='unicode61 remove_diacritics 2');
            CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
                INSERT INTO items_fts(rowid, \(names)) VALUES (new.id, \(new));
            END;
            CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
                INSERT INTO items_fts(items_fts, rowid, \(names)) VALUES ('delete', old.id, \(old));
            END;
            CREATE TRIGGER items_fts_update AFTER UPDATE OF \(folded) ON items BEGIN
                INSERT INTO items_fts(items_fts, rowid, \(names)) VALUES ('delete', old.id, \(old));
                INSERT INTO items_fts(rowid, \(names)) VALUES (new.id, \(new));
            END;
            """)
    }

    /// Adds a column for any property that appeared after the database was created, and for a searchable one
    /// its folded twin (filled from the column) and a full-text index rebuilt with it: a scan writes every
    /// folded column, so an old library without one could not be scanned at all. Reads first, so an
    /// up-to-date database is not written to. (Properties added from now on should come with a named
    /// migration step of their own; this keeps libraries of every earlier version scannable meanwhile.)
    static func addMissingPropertyColumns(_ writer: any DatabaseWriter) throws {
        let existing = try writer.read { db in Set(try db.columns(in: "items").map(\.name)) }
        guard SQLStore.lacksPropertyColumns(existing) else { return }
        try writer.write { db in
            let missingFolded = try SQLStore.addMissingPropertyColumns(SQLiteConnection.Executor(db: db), existing: existing, typeName: typeName)
            guard !missingFolded.isEmpty else { return }
            for p in missingFolded {
                let folded = ItemRow.quoted(ItemRow.foldedColumn(p))
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(ItemRow.quoted("items_" + ItemRow.foldedColumn(p))) ON items(\(folded))")
            }
            for trigger in ["items_fts_insert", "items_fts_delete", "items_fts_update"] {
                try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger)")
            }
            try db.execute(sql: "DROP TABLE IF EXISTS items_fts")
            try createFullTextSearch(db)
            try fillFullTextSearch(db)
        }
    }

    /// Indexes every item in an empty `items_fts` from the folded columns, as the triggers do ('rebuild'
    /// would read the unfolded ones).
    static func fillFullTextSearch(_ db: Database) throws {
        let names = ItemRow.searchable.map { ItemRow.quoted($0.rawValue) }.joined(separator: ", ")
        let folded = ItemRow.searchable.map { ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
        try db.execute(sql: "INSERT INTO items_fts(rowid, \(names)) SELECT id, \(folded) FROM items")
    }
}
