// swift-tools-version: 6.1
import PackageDescription

// Module map and dependency direction: see ARCHITECTURE.md (disk → probe → index → query → CLI/playlists/player).
let package = Package(
    name: "mlib",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mlib", targets: ["mlib"]),
        .library(name: "MediaModel", targets: ["MediaModel"]),
        .library(name: "MediaProbe", targets: ["MediaProbe"]),
        // The store layer: MediaIndex is store-neutral (the protocols, the query plan, the column list);
        // SQLiteStore (GRDB) and PostgresStore (postgres-nio) are its two dialects. A Swift program that only
        // needs the embedded library adds SQLiteStore and never links postgres-nio, NIO SSL or BoringSSL.
        .library(name: "MediaIndex", targets: ["MediaIndex"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "MediaScanner", targets: ["MediaScanner"]),
        .library(name: "MediaWatch", targets: ["MediaWatch"]),
        .library(name: "Playlists", targets: ["Playlists"]),
        .library(name: "MediaDecode", targets: ["MediaDecode"]),
        .library(name: "AudioAnalysis", targets: ["AudioAnalysis"]),
        .library(name: "Playback", targets: ["Playback"]),
        .library(name: "MPDServer", targets: ["MPDServer"]),
        .library(name: "Library", targets: ["Library"]),
        .library(name: "TagWriting", targets: ["TagWriting"]),
        .library(name: "SubsonicServer", targets: ["SubsonicServer"]),
        .library(name: "DLNAServer", targets: ["DLNAServer"]),
        .library(name: "WebApp", targets: ["WebApp"]),
    ],
    // `Library.open` reaches a PostgreSQL library only with this trait (on by default). A Swift program that
    // wants the façade without postgres-nio depends on mlib with `traits: []`.
    traits: [
        .trait(name: "PostgreSQL", description: "PostgreSQL libraries (postgres://…) through postgres-nio."),
        .default(enabledTraits: ["PostgreSQL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // Already built for postgres-nio; named here because PostgresTLS configures its TLS (sslmode, sslrootcert).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        // NIOHTTPTypes: the request and response parts the API server's ConnectionGuard sees (Hummingbird's own).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        // The OpenSubsonic API server (`mlib serve --http`): HTTP/1.1 over swift-nio, as the MPD server.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's header types, named by the web app (its own headers: X-CSRF-Token…). Already built for it.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        // MD5 for Subsonic's token auth and AES-GCM for the stored passwords. Already built for postgres-nio
        // (which resolves 4.x); 3.12.3 is the lowest this code needs.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // System libraries (Debian: libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libtag1-dev).
        // CFFmpeg gives the headers only (in the default multiarch include path); FFmpegLoader defines the
        // functions mlib calls and loads the libraries on first use (see FFmpegLoader.c for why).
        .systemLibrary(name: "CFFmpeg",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "libswscale-dev"])]),
        .target(name: "FFmpegLoader", dependencies: ["CFFmpeg"], linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CTagLibSystem", pkgConfig: "taglib", providers: [.apt(["libtag1-dev"])]),
        // PulseAudio simple API (also served by PipeWire) for the player's device sink; headers in /usr/include
        // (no pkgConfig: libpulse-simple.pc adds -D_REENTRANT/-pthread, which SwiftPM warns about).
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        // CPulse gives the headers only; PulseLoader defines the functions mlib calls and loads the library on
        // first use (see PulseLoader.c for why).
        .target(name: "PulseLoader", dependencies: ["CPulse"], linkerSettings: [.linkedLibrary("dl")]),
        // C interface over TagLib's C++ API (PropertyMap, pictures, audio properties in ms).
        .target(name: "CTagLib", dependencies: ["CTagLibSystem"]),

        // Set-up before `main`: SIGINT/SIGTERM recorded for `mlib scan` and `mlib watch`; two malloc arenas.
        .target(name: "EarlySignals"),
        .target(name: "CByteSearch"),
        // statx(2)'s birth time (Swift's Glibc leaves statx out): `MoveEvidenceRules`' same-file rule tells a
        // renamed file from a new file on the deleted one's reused inode by it.
        .target(name: "CFileBirth"),
        .target(name: "MediaModel"),
        // The one decode layer: FFmpeg demux + decode + swresample to the caller's sample type, rate and channels,
        // and FFmpeg's loading, log level and error text for every module that calls it (player, analyzer, prober).
        .target(name: "MediaDecode", dependencies: ["CFFmpeg", "FFmpegLoader", "MediaModel"]),
        // Loudness (libebur128, linked: it needs only libm) and fingerprints (Chromaprint: headers here, the
        // library loaded on first use by ChromaprintLoader, since it links libavcodec).
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CChromaprint", providers: [.apt(["libchromaprint-dev"])]),
        .target(name: "ChromaprintLoader", dependencies: ["CChromaprint"], linkerSettings: [.linkedLibrary("dl")]),
        // `mlib analyze` and `mlib dupes`: one decode pass feeding loudness and fingerprint, album gain, clusters.
        .target(name: "AudioAnalysis", dependencies: ["MediaDecode", "MediaIndex", "MediaModel", "CChromaprint", "ChromaprintLoader"]),
        .target(name: "MediaProbe", dependencies: ["CFFmpeg", "FFmpegLoader", "MediaDecode", "CTagLib", "MediaModel"]),
        // `mlib tag`: tags written through TagLib, each file wholly old or wholly new (undo journal or rename).
        .target(name: "TagWriting", dependencies: ["CTagLib", "MediaDecode", "MediaModel", "MediaProbe"]),
        // The store protocols and what both dialects share (the query plan, the column list, the scan vocabulary).
        .target(name: "MediaIndex", dependencies: ["MediaModel"]),
        // SQLiteIndex: the embedded default (GRDB).
        .target(name: "SQLiteStore", dependencies: ["MediaIndex", "MediaModel", .product(name: "GRDB", package: "GRDB.swift"),
                                                    // SQLite's C API (sqlite3_*) under GRDB, for the bulk writes' prepared statements.
                                                    .product(name: "GRDBSQLite", package: "GRDB.swift")]),
        // PostgresIndex: one library for many hosts (postgres-nio; NIO SSL configures its TLS).
        .target(name: "PostgresStore", dependencies: ["MediaIndex", "MediaModel",
                                                      .product(name: "PostgresNIO", package: "postgres-nio"),
                                                      .product(name: "NIOSSL", package: "swift-nio-ssl"),
                                                      .product(name: "NIOCore", package: "swift-nio"),
                                                      .product(name: "NIOPosix", package: "swift-nio"),
                                                      .product(name: "NIOTLS", package: "swift-nio"),
                                                      .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                                                      .product(name: "Logging", package: "swift-log")]),
        .target(name: "MediaScanner", dependencies: ["CFileBirth", "MediaProbe", "MediaIndex", "MediaModel"]),
        // `mlib watch`: inotify events turned into scans of the changed directories (`Library.scan`).
        .target(name: "MediaWatch", dependencies: ["Library", "MediaScanner", "MediaIndex", "MediaModel"]),
        .target(name: "Playlists", dependencies: ["MediaModel"]),
        .target(name: "Playback", dependencies: ["MediaDecode", "CPulse", "PulseLoader", "MediaModel"]),
        // The one façade every front (CLI, mlib watch, mlib serve) and Swift program uses over a store:
        // open, scan under the right lock with playlist mirroring, play statistics (`PlayStatisticsRule`: library
        // policy), playlist contents, tag writes and their recovery, containment at open time and covers
        // (`FileContainment`, `CoverLookup`), the view. It reaches PostgreSQL only with the PostgreSQL trait. It
        // does not depend on Playback: the player reports `ItemEnd`s (MediaModel) and the library judges them.
        .target(name: "Library", dependencies: ["MediaDecode", "MediaIndex", "MediaModel", "MediaProbe", "MediaScanner", "Playlists", "SQLiteStore", "TagWriting",
                                                .product(name: "Crypto", package: "swift-crypto"),
                                                // mlib import-userdata reads other programs' SQLite files (MPD stickers, beets, Navidrome).
                                                .product(name: "GRDB", package: "GRDB.swift"),
                                                // TranscodeSlots: the transcoding threads every streaming front shares the shape of;
                                                // ClientProgress: what a streaming front's client has acknowledged.
                                                .product(name: "NIOCore", package: "swift-nio"),
                                                .product(name: "NIOPosix", package: "swift-nio"),
                                                .target(name: "PostgresStore", condition: .when(traits: ["PostgreSQL"]))]),
        // `mlib serve`: the MPD protocol over a MusicPlayer and a Library (swift-nio for the sockets).
        .target(name: "MPDServer", dependencies: ["AudioAnalysis", "Playback", "MediaIndex", "MediaModel", "MediaProbe", "MediaScanner", "Library",
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "NIOPosix", package: "swift-nio")]),
        // `mlib serve --http`: the OpenSubsonic API over a Library and its in-memory view (Hummingbird).
        .target(name: "SubsonicServer", dependencies: ["CByteSearch", "Library", "MediaDecode", "MediaIndex", "MediaModel", "MediaProbe", "MediaScanner", "Playback",
                                                       .product(name: "Hummingbird", package: "hummingbird"),
                                                       .product(name: "HummingbirdCore", package: "hummingbird"),
                                                       .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                                                       .product(name: "NIOCore", package: "swift-nio"),
                                                       .product(name: "NIOPosix", package: "swift-nio"),
                                                       .product(name: "Logging", package: "swift-log"),
                                                       .product(name: "Crypto", package: "swift-crypto")]),
        // `mlib serve --http`'s web app (issue 45): the page and its files compiled into the binary (EmbedAssets),
        // sessions, and a JSON API beside the Subsonic one; the API server hands it every path outside /rest/.
        .target(name: "WebApp", dependencies: ["CZlib", "Library", "MediaIndex", "MediaModel", "Playback", "SubsonicServer",
                                               .product(name: "Hummingbird", package: "hummingbird"),
                                               .product(name: "HTTPTypes", package: "swift-http-types"),
                                               .product(name: "NIOCore", package: "swift-nio")],
                exclude: ["Assets"], plugins: ["EmbedAssets"]),
        // zlib (Debian: zlib1g-dev), for the web app's gzipped files.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // Turns a target's Assets/ folder into a Swift source (base64 literals): files in the binary, no bundle.
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["embed-assets"]),
        .executableTarget(name: "embed-assets", path: "Plugins/EmbedAssetsTool"),
        // `mlib serve --dlna`: a UPnP/DLNA MediaServer (SSDP, ContentDirectory, ConnectionManager, HTTP streaming)
        // over a Library and its in-memory view, for TVs, receivers and VLC (swift-nio, as the MPD server).
        .target(name: "DLNAServer", dependencies: ["Library", "MediaDecode", "MediaIndex", "MediaModel",
                                                   .product(name: "NIOCore", package: "swift-nio"),
                                                   .product(name: "NIOPosix", package: "swift-nio"),
                                                   .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                                                   .product(name: "NIOHTTP1", package: "swift-nio")]),
        .executableTarget(name: "mlib", dependencies: [
            "EarlySignals", "MediaModel", "MediaProbe", "MediaIndex", "MediaScanner", "MediaWatch", "Playlists", "Playback",
            "MPDServer", "SubsonicServer", "WebApp", "DLNAServer", "Library", "TagWriting", .target(name: "PostgresStore", condition: .when(traits: ["PostgreSQL"])),
            "AudioAnalysis",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        // mimalloc (Debian: libmimalloc-dev) replaces glibc's malloc for the whole process, TagLib's, SQLite's
        // and FFmpeg's allocations included (the executable's DT_NEEDED entry comes before libc): glibc's
        // malloc/free were ~15% of a full scan's CPU. Alternating full scans of c10k, 5 each: 0.90 s → 0.80 s
        // of CPU (Benchmarks/README.md). `AllocatorTests` checks that it stays linked.
        linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]),

        // README's "As a Swift library" example, as a program (LibraryTests runs it and checks the README shows it).
        .executableTarget(name: "library-example", dependencies: ["Library", "MediaIndex", "MediaModel", "Playback"], path: "Examples/LibraryExample"),

        // In-process query timings on a 100,000-item library (Benchmarks/query-bench runs it).
        .executableTarget(name: "query-bench", dependencies: ["MediaIndex", "SQLiteStore", "MediaModel", "BenchmarkSupport"],
                          path: "Benchmarks/QueryBench"),
        // The synthetic items of query-bench, and a library of them on either store (postgres-bench.sh).
        .target(name: "BenchmarkSupport", dependencies: ["MediaIndex", "MediaModel"], path: "Benchmarks/BenchmarkSupport"),
        .executableTarget(name: "synthetic-library", dependencies: ["BenchmarkSupport", "Library", "MediaIndex", "MediaModel"],
                          path: "Benchmarks/SyntheticLibrary"),
        // Servers that only answer, on swift-nio as mlib's are: the framework's own cost a request
        // (Benchmarks/nio-floor.sh, beside mpd, minidlna and the C floor).
        .executableTarget(name: "nio-floor", dependencies: [.product(name: "NIOCore", package: "swift-nio"),
                                                            .product(name: "NIOPosix", package: "swift-nio"),
                                                            .product(name: "NIOHTTP1", package: "swift-nio")],
                          path: "Benchmarks/NIOFloor"),
        // Recording a play for a user who is not the owner, and for the owner, in-process (issue 40: < 1 ms).
        .executableTarget(name: "user-play-bench", dependencies: ["BenchmarkSupport", "Library", "MediaIndex", "MediaModel"],
                          path: "Benchmarks/UserPlayBench"),

        .testTarget(name: "MediaModelTests", dependencies: ["MediaModel", "TestSupport"]),
        // fixture-reads.json: FixtureReadSnapshotTests' frozen reads, opened by path.
        .testTarget(name: "MediaProbeTests", dependencies: ["MediaProbe", "MediaDecode", "MediaModel", "TestSupport"],
                    exclude: ["fixture-reads.json"]),
        // A real PostgreSQL server for the tests of both stores (initdb + pg_ctl in a temporary directory).
        .target(name: "PostgresTestServer", dependencies: ["MediaIndex", "SQLiteStore", "Library", "TestSupport"],
                path: "Tests/PostgresTestServer"),
        .testTarget(name: "MediaIndexTests", dependencies: ["MediaIndex", "SQLiteStore", "PostgresStore", "Library", "MediaModel",
                                                            "PostgresTestServer", "TestSupport",
                                                            .product(name: "GRDB", package: "GRDB.swift"),
                                                            .product(name: "PostgresNIO", package: "postgres-nio"),
                                                            .product(name: "NIOCore", package: "swift-nio"),
                                                            .product(name: "NIOPosix", package: "swift-nio")]),
        .testTarget(name: "MediaScannerTests", dependencies: ["MediaScanner", "MediaWatch", "MediaIndex", "SQLiteStore", "PostgresStore",
                                                              "Library", "MediaModel", "MediaProbe",
                                                              "PostgresTestServer", "TestSupport",
                                                              .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "PlaylistsTests", dependencies: ["Playlists", "MediaModel", "TestSupport"]),
        .testTarget(name: "AudioAnalysisTests", dependencies: ["AudioAnalysis", "CEBUR128", "MediaDecode", "MediaIndex", "MediaModel",
                                                              "PostgresTestServer", "Library", "mlib", "TestSupport"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "MediaDecode", "MediaModel", "TestSupport"]),
        .testTarget(name: "TagWritingTests", dependencies: ["TagWriting", "MediaModel", "MediaProbe", "mlib", "TestSupport"], exclude: ["read_tags.py", "Fixtures"]),
        // What every test target shares: one child-process runner (posix_spawn, not Foundation's Process, so the
        // suites can run in parallel), waiting by polling to a deadline, the kill-at-a-random-moment harness.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CLITests", dependencies: ["mlib", "TestSupport"]),
        .testTarget(name: "MPDServerTests", dependencies: ["MPDServer", "mlib", "TestSupport", "Library", "MediaIndex", "MediaModel",
                                                           "PostgresTestServer", "SQLiteStore", "PostgresStore",
                                                           // The view all three fronts share (ProjectedViewBuildTests).
                                                           "SubsonicServer", "DLNAServer"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "MediaIndex", "MediaModel", "TagWriting",
                                                         "mlib", "library-example", "PostgresTestServer", "TestSupport"]),
        .testTarget(name: "SubsonicServerTests", dependencies: ["SubsonicServer", "mlib", "TestSupport", "Library", "MediaIndex",
                                                                "MediaModel", "PostgresTestServer"],
                    // The OpenSubsonic OpenAPI description the tests validate answers against, the Python client and
                    // GUIClientTests' screenshot (read or written by path).
                    exclude: ["Fixtures", "Scripts", "Evidence"]),
        // The web app's server side through `mlib serve --http`: sessions, CSRF, the throttle, the JSON API, events.
        .testTarget(name: "WebAppTests", dependencies: ["mlib", "TestSupport", "PostgresTestServer"], exclude: ["browser", "Evidence"]),
        // The DLNA server with a real control point (async-upnp-client) in a second network namespace, and the
        // search grammar's unit tests.
        .testTarget(name: "DLNAServerTests", dependencies: ["DLNAServer", "Library", "MediaIndex", "mlib", "MediaModel",
                                                            "PostgresTestServer", "TestSupport",
                                                            .product(name: "Crypto", package: "swift-crypto"),
                                                            .product(name: "NIOCore", package: "swift-nio")], exclude: ["Scripts"]),
        // Issue 38's household: network namespaces made by the tests, a PostgreSQL server in one, hosts with
        // their own names, homes and views of one path in others, running the built mlib (root only; skipped
        // visibly elsewhere).
        .testTarget(name: "NetworkHostsTests", dependencies: ["mlib", "PostgresTestServer", "TestSupport"], exclude: ["Scripts"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
