import MediaDecode

/// What one kind of renderer plays, told by its `User-Agent`: which audio codecs it takes as they are, and
/// so which items get transcoded `res` (LPCM, MP3) beside the file's own. A renderer picks the first `res`
/// it can play, so for a known renderer that cannot play the file the transcodes come first; for the
/// default (an unknown renderer, which may play anything) the file comes first and the transcodes after.
///
/// Entries are only what a source says (mlib(1), DLNA section, lists them):
/// - Sony PlayStation 3 (`User-Agent: PLAYSTATION 3`, as quoted in James Henstridge's 2009 post on Rygel's
///   LPCM transcoding for it, blogs.gnome.org/jamesh/2009): it plays no Vorbis, and MediaTomb and Rygel send
///   it LPCM. What it plays is kept to MP3, AAC, WMA and PCM: a cautious choice of ours, not from a source.
/// - Samsung TVs with AllShare (`User-Agent` containing `SEC_HHP_`, as the headers PS3 Media Server's
///   SamsungAllShare.conf quotes): FLAC only from the 2012 models (MediaBrowser pull request 1030), so FLAC
///   keeps its own `res` first but gets the transcodes too; the rest of the lossless and Ogg codecs get
///   the transcodes first (MP3, AAC, WMA and PCM as for the PS3: again our cautious choice).
struct RendererProfile: Sendable, Hashable {
    var name: String
    /// Matched case-sensitively anywhere in the `User-Agent`; empty for the default.
    var userAgentContains: String
    /// Codecs (FFmpeg's names; `pcm_` for every PCM) the renderer surely plays: no transcode for them.
    var plays: Set<String>
    /// Codecs it may play (its own `res` first) that still get the transcodes after it.
    var mayPlay: Set<String>
    /// The transcodes offered, in order.
    var alternatives: [TranscodeFormat] = [.lpcm, .mp3]

    /// Codecs the default offers transcodes for (the file's `res` first): those many renderers lack.
    static let lossless: Set<String> = ["flac", "alac", "opus", "vorbis", "wavpack", "ape"]

    /// Every renderer no entry names: everything native, LPCM and MP3 after FLAC, ALAC, Opus, Vorbis,
    /// WavPack and APE.
    static let standard = RendererProfile(name: "default", userAgentContains: "", plays: [], mayPlay: lossless)

    static let table: [RendererProfile] = [
        RendererProfile(name: "PlayStation 3", userAgentContains: "PLAYSTATION 3",
                        plays: ["mp3", "aac", "wmav1", "wmav2", "wmapro", "pcm_"], mayPlay: []),
        RendererProfile(name: "Samsung AllShare", userAgentContains: "SEC_HHP_",
                        plays: ["mp3", "aac", "wmav1", "wmav2", "wmapro", "pcm_"], mayPlay: ["flac"]),
    ]

    static func of(userAgent: String?) -> RendererProfile {
        guard let userAgent, !userAgent.isEmpty else { return standard }
        return table.first { userAgent.contains($0.userAgentContains) } ?? standard
    }

    /// Where the transcodes of an audio item of `codec` go: none, after the file's own `res`, or before it.
    enum Placement: Equatable { case none, after, before }

    func placement(codec: String?) -> Placement {
        guard let codec, !codec.isEmpty else { return .none }
        let key = codec.hasPrefix("pcm_") ? "pcm_" : codec
        if plays.contains(key) { return .none }
        if mayPlay.contains(key) { return .after }
        // The default plays what it is given; a named renderer, only what it names.
        return self == Self.standard ? .none : .before
    }
}
