import MediaDecode

/// The MIME type and DLNA profile (`DLNA.ORG_PN`) of a file from its container, codecs, extension and
/// resolution, and the `protocolInfo`'s fourth field (DLNA Guidelines 7.4.1.3: PN, OP, FLAGS).
/// Profiles are named only where the file surely is one (a renderer refuses a wrong PN more readily than a
/// missing one: gerbera#1426); the rest are served by MIME type alone.
struct MediaProfile: Sendable, Hashable {
    var mimeType: String
    var profile: String?
    /// A stream made by the transcoder: no byte seek (its bytes do not exist before they are made), and
    /// DLNA.ORG_CI=1 (converted content).
    var transcoded = false

    /// Byte seek (HTTP Range) only: time seek needs a transcoder in the path.
    static let operations = "01"
    /// Streaming transfer, background transfer, connection stalling, DLNA 1.5.
    static let flags = "01700000000000000000000000000000"

    var contentFeatures: String {
        (profile.map { "DLNA.ORG_PN=\($0);" } ?? "") + "DLNA.ORG_OP=\(transcoded ? "00" : Self.operations);DLNA.ORG_CI=\(transcoded ? 1 : 0);DLNA.ORG_FLAGS=\(Self.flags)"
    }

    /// A transcode's profile: LPCM (`audio/L16;rate=…;channels=…`, RFC 2586, as DLNA's LPCM profile names it)
    /// or MP3.
    static func transcode(_ format: TranscodeFormat, sampleRate: Int, channels: Int) -> MediaProfile {
        switch format {
        case .lpcm: MediaProfile(mimeType: "audio/L16;rate=\(sampleRate);channels=\(channels)", profile: "LPCM", transcoded: true)
        case .mp3: MediaProfile(mimeType: "audio/mpeg", profile: "MP3", transcoded: true)
        case .opus: MediaProfile(mimeType: "audio/ogg", profile: nil, transcoded: true)
        }
    }

    var protocolInfo: String { "http-get:*:\(mimeType):\(contentFeatures)" }

    /// A video's still (`/thumb/…`): JPEG_TN, made from the file (CI=1), no seek, interactive and background
    /// transfer (DLNA Guidelines 7.4.1.3.24: images are not streamed).
    enum Thumbnail {
        static let contentFeatures = "DLNA.ORG_PN=JPEG_TN;DLNA.ORG_OP=00;DLNA.ORG_CI=1;DLNA.ORG_FLAGS=00D00000000000000000000000000000"
        static let protocolInfo = "http-get:*:image/jpeg:\(contentFeatures)"
    }

    static func of(container: String?, audioCodec: String?, videoCodec: String?, fileExtension: String?,
                   resolution: String?, isVideo: Bool) -> MediaProfile {
        let container = container ?? "", audio = audioCodec ?? "", video = videoCodec ?? "", ext = fileExtension ?? ""
        if isVideo {
            let height = resolution.flatMap { $0.split(separator: "x").last.flatMap { Int($0) } } ?? 0
            if container.contains("mp4") || ext == "mp4" || ext == "m4v" || ext == "mov" {
                if video == "h264" && audio == "aac" {
                    let pn = height > 720 ? "AVC_MP4_MP_HD_1080i_AAC" : height > 576 ? "AVC_MP4_MP_HD_720p_AAC" : "AVC_MP4_MP_SD_AAC_MULT5"
                    return MediaProfile(mimeType: "video/mp4", profile: pn)
                }
                return MediaProfile(mimeType: ext == "mov" ? "video/quicktime" : "video/mp4", profile: nil)
            }
            if container.contains("matroska") || ext == "mkv" || ext == "webm" {
                return MediaProfile(mimeType: ext == "webm" ? "video/webm" : "video/x-matroska", profile: nil)
            }
            if container == "mpegts" || ext == "ts" || ext == "m2ts" {
                let pn = video == "h264" ? "AVC_TS_MP_HD_AAC_MULT5" : video == "mpeg2video" ? (height > 576 ? "MPEG_TS_HD_NA_ISO" : "MPEG_TS_SD_EU_ISO") : nil
                return MediaProfile(mimeType: "video/mpeg", profile: pn)
            }
            if container == "mpeg" || ext == "mpg" || ext == "mpeg" || ext == "vob" {
                return MediaProfile(mimeType: "video/mpeg", profile: video == "mpeg2video" ? "MPEG_PS_PAL" : nil)
            }
            if container == "avi" || ext == "avi" { return MediaProfile(mimeType: "video/x-msvideo", profile: nil) }
            if container.contains("asf") || ext == "wmv" { return MediaProfile(mimeType: "video/x-ms-wmv", profile: nil) }
            return MediaProfile(mimeType: "video/\(ext.isEmpty ? "octet-stream" : ext)", profile: nil)
        }
        switch audio {
        case "mp3": return MediaProfile(mimeType: "audio/mpeg", profile: "MP3")
        case "aac" where container == "aac" || ext == "aac": return MediaProfile(mimeType: "audio/vnd.dlna.adts", profile: "AAC_ADTS_320")
        case "aac": return MediaProfile(mimeType: "audio/mp4", profile: "AAC_ISO_320")
        case "alac": return MediaProfile(mimeType: "audio/mp4", profile: nil)
        case "flac": return MediaProfile(mimeType: "audio/flac", profile: nil)
        case "vorbis", "opus": return MediaProfile(mimeType: "audio/ogg", profile: nil)
        case "wmav1", "wmav2": return MediaProfile(mimeType: "audio/x-ms-wma", profile: "WMABASE")
        case "wmapro": return MediaProfile(mimeType: "audio/x-ms-wma", profile: "WMAPRO")
        case _ where audio.hasPrefix("pcm_") && (container == "wav" || ext == "wav"): return MediaProfile(mimeType: "audio/wav", profile: nil)
        case _ where audio.hasPrefix("pcm_") && (container == "aiff" || ext.hasPrefix("aif")): return MediaProfile(mimeType: "audio/aiff", profile: nil)
        case "wavpack": return MediaProfile(mimeType: "audio/x-wavpack", profile: nil)
        default: return MediaProfile(mimeType: "audio/\(ext.isEmpty ? "octet-stream" : ext)", profile: nil)
        }
    }

    /// What ConnectionManager's GetProtocolInfo lists: every kind this server serves.
    static let served: [MediaProfile] = [
        MediaProfile(mimeType: "audio/mpeg", profile: "MP3"), MediaProfile(mimeType: "audio/mp4", profile: "AAC_ISO_320"),
        MediaProfile(mimeType: "audio/vnd.dlna.adts", profile: "AAC_ADTS_320"), MediaProfile(mimeType: "audio/x-ms-wma", profile: "WMABASE"),
        MediaProfile(mimeType: "audio/mp4", profile: nil), MediaProfile(mimeType: "audio/flac", profile: nil),
        MediaProfile(mimeType: "audio/ogg", profile: nil), MediaProfile(mimeType: "audio/wav", profile: nil),
        MediaProfile(mimeType: "audio/aiff", profile: nil), MediaProfile(mimeType: "audio/L16;rate=44100;channels=2", profile: "LPCM"),
        MediaProfile(mimeType: "audio/L16;rate=48000;channels=2", profile: "LPCM"),
        MediaProfile(mimeType: "video/mp4", profile: "AVC_MP4_MP_SD_AAC_MULT5"), MediaProfile(mimeType: "video/mp4", profile: "AVC_MP4_MP_HD_720p_AAC"),
        MediaProfile(mimeType: "video/mp4", profile: "AVC_MP4_MP_HD_1080i_AAC"), MediaProfile(mimeType: "video/mp4", profile: nil),
        MediaProfile(mimeType: "video/mpeg", profile: "MPEG_PS_PAL"), MediaProfile(mimeType: "video/mpeg", profile: "MPEG_TS_SD_EU_ISO"),
        MediaProfile(mimeType: "video/x-matroska", profile: nil), MediaProfile(mimeType: "video/x-msvideo", profile: nil),
        MediaProfile(mimeType: "image/jpeg", profile: "JPEG_TN"), MediaProfile(mimeType: "image/png", profile: "PNG_LRG"),
    ]
}
