import MediaIndex
import MediaModel
import MediaProbe

/// The identity a scan stores of a file (`ContentIdentity`, beside the reader): its fingerprint, and its
/// end hashes in the store's form.
enum Fingerprint {
    static func identity(_ file: MediaFile) -> (fingerprint: Int64, ends: EndHashes) {
        identity(ContentIdentity(file))
    }

    static func identity(_ content: ContentIdentity) -> (fingerprint: Int64, ends: EndHashes) {
        (content.fingerprint, EndHashes(head: content.head, tail: content.tail, payload: content.payload))
    }

    static func payloadHash(_ file: MediaFile) -> Int64? {
        ContentIdentity.payloadHash(AudioPayload.leadingBytes(of: file))
    }

    static func of(_ file: MediaFile) -> Int64 { ContentIdentity(file).fingerprint }

    static func of(_ path: MediaPath) -> Int64? {
        (try? MediaFile(path)).map(of)
    }

    static func ends(_ file: MediaFile) -> EndHashes { identity(file).ends }
}
