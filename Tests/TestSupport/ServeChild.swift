import Foundation

/// `mlib serve` as a child process for the server tests (MPD and HTTP alike): started with its standard
/// error piped, its port read from the first line it prints ("… on 127.0.0.1:PORT" for MPD, "… on
/// http://127.0.0.1:PORT/rest" for the Subsonic API: the digits after the last colon), and stopped by
/// SIGTERM.
public final class ServeChild: @unchecked Sendable {
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    public let process = Process()
    public private(set) var port = 0
    private let stderr = Pipe()

    public init(mlib: URL, arguments: [String]) throws {
        process.executableURL = mlib
        process.arguments = arguments
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let handle = stderr.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...].prefix { $0.isNumber }) else {
            throw StartFailure(description: "mlib \(arguments.joined(separator: " ")) did not start: \(text)")
        }
        self.port = port
    }

    /// SIGTERM; returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
