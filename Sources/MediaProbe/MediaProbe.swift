import MediaModel

/// Reads one file. Placeholder until the FFmpeg + TagLib reader lands (issue 2).
public enum MediaProbe {
    public static func probe(_ path: MediaPath) throws(ProbeError) -> ProbeResult {
        throw .notMedia(path, reason: "probe not implemented yet")
    }
}
