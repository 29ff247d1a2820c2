import NIOCore

/// How many bytes of a TCP connection its client has acknowledged, asked of the kernel: Linux's `tcp_info`
/// holds `tcpi_bytes_acked` (since Linux 4.1, byte 120 of the structure, which only grows), past where
/// glibc's `struct tcp_info` ends, so the structure is read whole as raw bytes. The streaming fronts' write
/// watches use it to tell a client that reads slowly from one that reads nothing: the kernel lets a server
/// write again only once a third of the socket's send buffer is free, so a client reading at its pace from a
/// megabytes-large buffer can go many seconds without the server seeing it take anything (DLNA's
/// `HTTPHandler`, the API's `ConnectionGuard`).
public enum ClientProgress {
    /// Linux's `struct tcp_info` as the kernel writes it (232 bytes in Linux 6.1), as raw bytes.
    public struct KernelTCPInfo: Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    static let bytesAckedOffset = 120

    /// Calls `then` on the channel's event loop with the bytes acknowledged, or nil where the kernel does
    /// not say (not a TCP socket, not Linux).
    public static func acknowledged(on channel: Channel, then: @escaping @Sendable (UInt64?) -> Void) {
        guard let provider = channel as? SocketOptionProvider else { return then(nil) }
        let info: EventLoopFuture<KernelTCPInfo> = provider.unsafeGetSocketOption(level: .tcp, name: .tcp_info)
        info.whenComplete { result in
            then((try? result.get()).map { info in
                withUnsafeBytes(of: info.words) { $0.load(fromByteOffset: bytesAckedOffset, as: UInt64.self) }
            })
        }
    }
}
