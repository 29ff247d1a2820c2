import CChromaprint
import ChromaprintLoader

/// A raw fingerprint in Chromaprint's compressed form, base64 (URL-safe, unpadded): what `fpcalc` prints
/// without `-raw`, what AcoustID takes, and what MPD's `getfingerprint` answers (MPD's
/// `chromaprint_get_fingerprint` is this encoding of the same raw print). Chromaprint encodes it, so the
/// bytes are its own.
public enum FingerprintEncoding {
    public static func compressedBase64(_ raw: [UInt32]) throws(AnalysisError) -> String {
        if let failure = mlib_chromaprint_load_error() { throw .fingerprint(String(cString: failure)) }
        var encoded: UnsafeMutablePointer<CChar>?
        var size: Int32 = 0
        let status = raw.withUnsafeBufferPointer {
            chromaprint_encode_fingerprint($0.baseAddress, Int32($0.count), Int32(CHROMAPRINT_ALGORITHM_DEFAULT.rawValue),
                                           &encoded, &size, 1)
        }
        guard status == 1, let encoded else { throw .fingerprint("Chromaprint: cannot encode the fingerprint") }
        defer { chromaprint_dealloc(encoded) }
        return String(decoding: UnsafeRawBufferPointer(start: encoded, count: Int(size)), as: UTF8.self)
    }
}
