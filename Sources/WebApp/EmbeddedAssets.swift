import Foundation
import NIOCore
import Synchronization

/// One file of `Assets/`, compiled in by the EmbedAssets plugin (`EmbeddedAssets+Files.swift`, generated).
struct EmbeddedAsset: Sendable {
    let contentType: String
    /// The content's hash, quoted, as an ETag.
    let etag: String
    let base64: String
}

/// The web app's files (`Sources/WebApp/Assets/`), compiled into the binary: a `--static-swift-stdlib`
/// build copied alone serves them. Each is decoded and gzipped at its first request, then kept.
enum EmbeddedAssets {
    struct File: Sendable {
        let contentType: String
        let etag: String
        let plain: ByteBuffer
        /// nil when gzip does not make it smaller.
        let gzipped: ByteBuffer?
    }

    private static let ready = Mutex<[String: File]>([:])

    /// The file at `name` (a path under `Assets/`), or nil.
    static func file(_ name: String) -> File? {
        if let done = ready.withLock({ $0[name] }) { return done }
        guard let asset = files[name], let data = Data(base64Encoded: asset.base64) else { return nil }
        let zipped = Gzip.compress(data).flatMap { $0.count < data.count ? $0 : nil }
        let file = File(contentType: asset.contentType, etag: asset.etag, plain: ByteBuffer(bytes: data),
                        gzipped: zipped.map { ByteBuffer(bytes: $0) })
        ready.withLock { $0[name] = file }
        return file
    }

    /// Every file's name and size in bytes (uncompressed), for the figures of the web app's weight.
    static var sizes: [(name: String, bytes: Int)] {
        files.map { ($0.key, Data(base64Encoded: $0.value.base64)?.count ?? 0) }.sorted { $0.name < $1.name }
    }
}
