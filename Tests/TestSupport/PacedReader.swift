import Foundation

/// A client that reads an HTTP answer as a player does, at its own pace (or not at all), run in a `VethLab`'s
/// client namespace: the streaming fronts' write timeouts are tested against it (DLNA's and the API's).
public enum PacedReader {
    /// GETs PATH from HOST:PORT, waits WAIT seconds, then reads CHUNK bytes every PAUSE seconds up to LIMIT
    /// bytes of answer; writes the body to OUT (unless it is `-`) and prints the body's bytes and the seconds
    /// from the first read to the end.
    static let script = """
        import socket, sys, time
        host, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        wait, pause, chunk, limit, out = float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), sys.argv[8]
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        s.connect((host, port))
        s.sendall(f"GET {path} HTTP/1.1\\r\\nHost: {host}\\r\\nConnection: close\\r\\n\\r\\n".encode())
        time.sleep(wait)
        s.settimeout(20)
        data, started = bytearray(), time.monotonic()
        while len(data) < limit:
            piece = s.recv(chunk)
            if not piece: break
            data += piece
            time.sleep(pause)
        body = data[data.find(b"\\r\\n\\r\\n") + 4:]
        if out != "-": open(out, "wb").write(body)
        print(len(body), round(time.monotonic() - started, 2))
        """

    public struct Result: Sendable {
        /// The body's bytes read, and the seconds from the first read to the end (-1 when the script failed).
        public var bytes: Int
        public var seconds: Double
        /// Whether the script ran and printed its two figures; its output and errors otherwise.
        public var ran: Bool
        public var diagnostics: String
    }

    /// Reads `path` from the lab's server address at `port` (see `script`), the body into `out` if given.
    public static func read(in lab: VethLab, port: Int, path: String, wait: Double, pause: Double, chunk: Int,
                            limit: Int = 1 << 62, into out: URL? = nil) throws -> Result {
        let run = try lab.runClient(["python3", "-c", script, lab.serverAddress, String(port), path, String(wait), String(pause),
                                     String(chunk), String(limit), out?.path ?? "-"])
        let fields = run.out.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let ran = run.status == 0 && fields.count == 2
        return Result(bytes: ran ? Int(fields[0]) : -1, seconds: ran ? fields[1] : -1, ran: ran, diagnostics: "\(run.out) \(run.stderr)")
    }
}
