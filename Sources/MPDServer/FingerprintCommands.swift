import AudioAnalysis

/// `getfingerprint URI`: the song's Chromaprint fingerprint as mpd answers it, `chromaprint: <compressed
/// base64>` (Chromaprint's own encoding of the default algorithm's print of the first 120 s, as fpcalc
/// prints it). From the print `mlib analyze` stored when there is one; else the file is decoded as far as
/// Chromaprint takes it, as mpd does for every request. Both off the loop, on the store thread: a decode
/// there delays this server's other store calls, not the loop (a 180 s FLAC: 0.75 s in a debug build at
/// load 14, where fpcalc took 0.18 s; from the index, 2 ms).
enum FingerprintCommands {
    static func getfingerprint(_ c: CommandContext, _ out: inout Response) throws {
        let browser = c.core.browser()
        guard let song = browser.song(c.arguments[0]) else { throw MPDError.noSuchSong }
        let id = browser.view.ids[Int(song)], path = browser.view.paths[Int(song)]
        let store = c.core.store
        c.offLoop {
            let raw = try store.fingerprints(ids: [id])[id] ?? TrackAnalyzer.fingerprint(path: path)
            let encoded = try FingerprintEncoding.compressedBase64(raw)
            return { _, out in out.field("chromaprint", encoded) }
        }
    }
}
