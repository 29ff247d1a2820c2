import Foundation
import NIOCore

/// One client connection: authentication, command lists, idle, and the per-client tag mask. Lines come
/// in from the channel handler and are queued behind the player events already on the core's loop.
final class ClientSession: @unchecked Sendable {
    let core: ServerCore
    private let channel: any Channel
    var permissions: Permission
    /// Tags this client asked for with `tagtypes` (all by default).
    var enabledTags: Set<String> = Set(MPDTag.all.map(\.name))
    /// Largest binary chunk for `albumart`/`readpicture` (`binarylimit`; MPD's default is 8 KiB).
    var binaryLimit = 8192

    private var commandList: [String]?
    private var commandListOK = false
    /// While in `idle`: the subsystems the client waits for.
    private var idleMask: Set<Subsystem>?
    /// Changes not yet reported by an `idle`.
    private var pending: Set<Subsystem> = []
    private var closed = false

    /// MPD's limit on the size of a command list (`max_command_list_size`, 2 MiB).
    static let maxCommandListBytes = 2 * 1024 * 1024
    private var commandListBytes = 0

    init(core: ServerCore, channel: any Channel) {
        self.core = core
        self.channel = channel
        permissions = core.configuration.password == nil ? .all : []
    }

    // MARK: From the channel (on the loop)

    func start() {
        core.enqueue {
            self.core.register(self)
            self.send(Array("OK MPD \(MPDServer.protocolVersion)\n".utf8))
        }
    }

    func receive(_ line: [UInt8]) {
        core.enqueue { self.process(line) }
    }

    func disconnected() {
        core.enqueue {
            self.closed = true
            self.core.unregister(self)
        }
    }

    // MARK: On the core's loop

    func changed(_ subsystems: Set<Subsystem>) {
        pending.formUnion(subsystems)
        if let mask = idleMask { answerIdle(mask, force: false) }
    }

    private func process(_ raw: [UInt8]) {
        guard !closed else { return }
        var bytes = raw[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        // MPD's protocol is UTF-8; a line that is not is refused rather than guessed at.
        guard let line = String(validating: bytes, as: UTF8.self) else {
            if idleMask != nil || commandList != nil { return close() }
            return send(ack(MPDError(.argument, "Malformed UTF-8 in request"), command: "", index: 0))
        }
        if let mask = idleMask {
            // While idle only `noidle` is allowed; anything else ends the connection, as with MPD.
            guard line == "noidle" else { return close() }
            idleMask = nil
            answerIdle(mask, force: true)
            return
        }
        if commandList != nil {
            if line == "command_list_end" { return runCommandList() }
            commandListBytes += line.utf8.count
            guard commandListBytes <= Self.maxCommandListBytes else { return close() }
            commandList?.append(line)
            return
        }
        if line == "command_list_begin" || line == "command_list_ok_begin" {
            commandList = []
            commandListOK = line == "command_list_ok_begin"
            commandListBytes = 0
            return
        }
        var out = Response()
        switch execute(line, index: 0, inList: false, into: &out) {
        case .ok:
            out.line("OK")
            send(out.bytes)
        case .error(let bytes):
            send(out.bytes + bytes)
        case .idle(let mask):
            idleMask = mask
            answerIdle(mask, force: false)
        case .silent:
            break
        case .close:
            close()
        }
    }

    private func runCommandList() {
        let lines = commandList ?? []
        commandList = nil
        var out = Response()
        for (index, line) in lines.enumerated() {
            switch execute(line, index: index, inList: true, into: &out) {
            case .ok, .silent:
                if commandListOK { out.line("list_OK") }
            case .error(let bytes):
                return send(out.bytes + bytes)
            case .idle:
                return send(out.bytes + ack(MPDError(.argument, "idle in command list"), command: "idle", index: index))
            case .close:
                send(out.bytes)
                return close()
            }
        }
        out.line("OK")
        send(out.bytes)
    }

    enum Outcome {
        case ok
        case error([UInt8])
        case idle(Set<Subsystem>)
        /// No answer at all (`noidle` outside idle).
        case silent
        case close
    }

    private func execute(_ line: String, index: Int, inList: Bool, into out: inout Response) -> Outcome {
        let name: String, arguments: [String]
        do {
            (name, arguments) = try RequestParser.parse(line)
        } catch {
            switch error {
            case .malformedCommand: return .close
            case .ack(let message): return .error(ack(MPDError(.unknown, message), command: "", index: index))
            }
        }
        guard let command = CommandTable.command(named: name) else {
            return .error(ack(MPDError(.unknown, "unknown command \"\(name)\""), command: "", index: index))
        }
        guard permissions.isSuperset(of: command.permission) else {
            return .error(ack(MPDError(.permission, "you don't have permission for \"\(name)\""), command: name, index: index))
        }
        if arguments.count < command.minArguments || arguments.count > (command.maxArguments ?? .max) {
            let message = command.minArguments == command.maxArguments ? "wrong number of arguments for \"\(name)\""
                : arguments.count < command.minArguments ? "too few arguments for \"\(name)\""
                : "too many arguments for \"\(name)\""
            return .error(ack(MPDError(.argument, message), command: name, index: index))
        }
        switch name {
        case "close": return .close
        case "idle":
            var mask = Set<Subsystem>()
            for argument in arguments {
                guard let subsystem = Subsystem(rawValue: argument.lowercased()) else {
                    return .error(ack(MPDError(.argument, "Unrecognized idle event: \(argument)"), command: name, index: index))
                }
                mask.insert(subsystem)
            }
            return .idle(mask.isEmpty ? Set(Subsystem.allCases) : mask)
        case "noidle":
            // Not idling (the idle was already answered): MPD sends nothing back, and a client that
            // sends idle/noidle in a race counts on that (ncmpcpp does).
            return .silent
        default:
            break
        }
        let context = CommandContext(core: core, session: self, arguments: arguments)
        do {
            try command.handler(context, &out)
            core.commitQueue()
            return .ok
        } catch let error as MPDError {
            core.commitQueue()
            return .error(ack(error, command: name, index: index))
        } catch {
            core.commitQueue()
            return .error(ack(MPDError(.system, "\(error)"), command: name, index: index))
        }
    }

    /// `ACK [error@command_listNum] {current_command} message_text`
    private func ack(_ error: MPDError, command: String, index: Int) -> [UInt8] {
        Array("ACK [\(error.code.rawValue)@\(index)] {\(command)} \(error.message)\n".utf8)
    }

    /// Answers a pending `idle` with what changed in its mask (or, for `noidle`, whatever there is).
    private func answerIdle(_ mask: Set<Subsystem>, force: Bool) {
        let due = pending.intersection(mask)
        guard !due.isEmpty || force else { return }
        var out = Response()
        for subsystem in Subsystem.allCases where due.contains(subsystem) { out.field("changed", subsystem.rawValue) }
        out.line("OK")
        pending.subtract(due)
        idleMask = nil
        send(out.bytes)
    }

    private func send(_ bytes: [UInt8]) {
        guard !closed else { return }
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
    }

    func close() {
        guard !closed else { return }
        closed = true
        core.unregister(self)
        channel.close(promise: nil)
    }
}

/// What a command handler gets: the shared state, its connection, and its arguments.
struct CommandContext {
    let core: ServerCore
    let session: ClientSession
    let arguments: [String]

    /// No tag mask when every tag is on (the usual case): looking each tag up cost a hash per field.
    var songs: SongWriter {
        SongWriter(uris: core.uris, enabledTags: session.enabledTags.count == MPDTag.all.count ? nil : session.enabledTags)
    }
}
