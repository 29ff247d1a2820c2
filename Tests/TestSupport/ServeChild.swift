import Foundation

/// `mlib serve` as a child process for the server tests (MPD and HTTP alike): started with its standard
/// error piped, its port read from the first line it prints ("… on 127.0.0.1:PORT" for MPD, "… on
/// http://127.0.0.1:PORT/rest" for the Subsonic API: the digits after the last colon), and stopped by
/// SIGTERM.
public final class ServeChild: @unchecked Sendable {
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    public let process: SpawnedProcess
    public private(set) var port = 0

    public init(mlib: URL, arguments: [String], environment: [String: String] = [:]) throws {
        process = try SpawnedProcess(mlib.path, arguments, environment: environment, stderr: .pipe)
        var line = Data()
        let handle = process.standardError!
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
