import Foundation

/// Buffered standard output: commands print many small pieces; one write(2) per 64 KiB keeps that cheap.
struct StandardOutput {
    private var buffer: [UInt8] = []

    mutating func write(_ s: String) {
        buffer += s.utf8
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(bytes: [UInt8]) {
        buffer += bytes
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The process arguments as raw bytes (argv), for file names that are not valid UTF-8.
enum RawArguments {
    static var all: [[UInt8]] {
        (1..<Int(CommandLine.argc)).compactMap { i in
            CommandLine.unsafeArgv[i].map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) }
        }
    }
}
