import Foundation
import Library
import MediaModel
import NIOCore

/// One client connection: authentication, command lists, idle, and the per-client tag mask. Lines come
/// in from the channel handler and are queued behind the player events already on the core's loop.
final class ClientSession: @unchecked Sendable {
    let core: ServerCore
    private let channel: any Channel
    var permissions: Permission
    /// The library user this connection logged in as (`password user:secret`): their ratings and plays
    /// (nil: the library's owner's, the items' own).
    var user: String?
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
    /// How long a command list runs before the loop serves others (`continueList`).
    static let listSlice = Duration.milliseconds(5)
    private var commandListBytes = 0

    /// A command of this client is running off the loop (a store call): lines that arrive meanwhile wait
    /// here, so a client's commands are answered in order while other clients go on being served.
    private var busy = false
    /// (A ring: `removeFirst` on an array moved every waiting line, and 5,000 pipelined `lsinfo DIR` spent
    /// their time in memmove.)
    private var waiting = CircularBuffer<[UInt8]>()
    /// The socket's reads are stopped (`maxWaitingBytes`).
    private var readsPaused = false
    private var waitingBytes = 0
    /// Lines waiting past this stop the reads from the socket until they are run (back-pressure on the
    /// input: a client that pipelines faster than it reads its answers is not buffered without bound).
    static let maxWaitingBytes = 64 * 1024
    /// The command list being run: its lines, the next one, and the answer so far.
    private var listLines: [String] = []
    private var listNext = 0
    private var listOut = Response()
    /// Set by a handler through `CommandContext.offLoop`.
    var deferred: OffLoopWork?
    /// Set by a handler through `CommandContext.continueLater`.
    var continuation: Continuation?

    init(core: ServerCore, channel: any Channel) {
        self.core = core
        self.channel = channel
        permissions = core.configuration.password == nil ? .all : []
    }

    // MARK: From the channel (on the loop)

    func start() {
        core.runOnLoop {
            self.core.register(self)
            self.send(Array("OK MPD \(MPDServer.protocolVersion)\n".utf8))
        }
    }

    func receive(_ line: [UInt8]) {
        // Run at once (the channel's handlers are on the core's loop): queued behind the loop's other
        // tasks, each answer waited for the whole batch of reads, and polling clients got 0.6x mpd's rate.
        // (Tested here rather than through `runOnLoop`, whose closure cost an allocation per line.)
        guard core.loop.inEventLoop else { return core.enqueue { self.receive(line) } }
        // A client whose answers are not read yet (the channel is unwritable) waits like one whose
        // command runs off the loop: its next commands run once the socket drains.
        guard busy || !channel.isWritable || !waiting.isEmpty else { return process(line) }
        waiting.append(line)
        waitingBytes += line.count + 1
        if waitingBytes > Self.maxWaitingBytes && !readsPaused {
            readsPaused = true
            channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        }
    }

    /// Runs the lines that waited for an off-loop command or for the socket to drain, until one goes off
    /// the loop again or the socket fills.
    private func drainWaiting() {
        // The answers of the lines run here go out with one flush, as those of one read do (5,000 pipelined
        // `stats` spent a fifth of their time in a flush each).
        let batching = !inRead
        if batching { inRead = true }
        defer { if batching { endOfRead() } }
        while !busy, !closed, channel.isWritable, !waiting.isEmpty {
            let line = waiting.removeFirst()
            waitingBytes -= line.count + 1
            process(line)
        }
        if waiting.isEmpty && !closed && readsPaused {
            readsPaused = false
            channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        }
    }

    /// The channel's unsent answers fell below its low-water mark.
    func becameWritable() {
        core.enqueue { self.drainWaiting() }
    }

    /// Nothing came from the client for `connectionTimeout`: it is disconnected unless it waits in
    /// `idle` or for its own command (MPD's `connection_timeout`).
    func receivedNothing() {
        core.enqueue {
            guard self.idleMask == nil, !self.busy, self.waiting.isEmpty else { return }
            self.close()
        }
    }

    /// Sends the first parts of a long answer while the rest is built (`Response.sink`). Made once per
    /// connection: a closure with a weak reference made per command showed in a polling client's profile.
    private lazy var chunkSink: @Sendable ([UInt8]) -> Void = { [weak self] chunk in self?.send(chunk) }

    /// Answer bytes written to the channel and not yet sent: with the answer being built, they count
    /// against `maximumOutputBuffer`. (Kept here: NIO's `bufferedWritableBytes` option costs dynamic
    /// casts and generic metadata look-ups per call, more than a promise per write.)
    private var unsentBytes = 0

    /// What an answer may still hold (`maximumOutputBuffer` less what is still unsent).
    private var outputRoom: Int { max(0, core.configuration.maximumOutputBuffer - unsentBytes) }

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
        // MPD's protocol is UTF-8; a line that is not is refused rather than guessed at. (An ASCII line, the
        // usual one, needs no validating: the generic `String(validating:as:)` looked up type metadata on
        // every line of a polling client.)
        let ascii = bytes.allSatisfy { $0 < 0x80 }
        guard let line = ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self) else {
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
        var out = Response(limit: outputRoom, sink: chunkSink)
        let outcome = execute(line, index: 0, inList: false, into: &out)
        if case .waitsForLibrary = outcome {
            // Parked as an off-loop command is: this client's next lines wait behind it, others go on.
            busy = true
            return core.whenLibraryReady {
                self.busy = false
                self.process(raw)
                self.drainWaiting()
            }
        }
        if case .deferred(let work, let name, let arguments) = outcome {
            busy = true
            return runOffLoop(work, name: name, arguments: arguments, index: 0, out: out) { outcome, out in
                self.busy = false
                self.answer(outcome, out)
                self.drainWaiting()
            }
        }
        if case .continuing(let step) = outcome {
            busy = true
            return runLater(step, out: out) { out in
                self.busy = false
                self.answer(.ok, out)
                self.drainWaiting()
            }
        }
        answer(outcome, out)
    }

    private func answer(_ outcome: Outcome, _ answer: Response) {
        var out = answer
        // Over the output buffer: the client is closed, as MPD closes it.
        if out.overflowed { return close() }
        switch outcome {
        case .ok:
            out.line("OK")
            send(out.bytes)
        case .error(let bytes):
            send(out.bytes + bytes)
        case .idle(let mask):
            idleMask = mask
            answerIdle(mask, force: false)
        case .silent, .deferred, .continuing, .waitsForLibrary:
            break
        case .close:
            close()
        }
    }

    private func runCommandList() {
        listLines = commandList ?? []
        commandList = nil
        listNext = 0
        listOut = Response(limit: outputRoom, sink: chunkSink)
        continueList()
    }

    /// Runs the list from `listNext`; a command that goes off the loop suspends it until its answer.
    private func continueList() {
        let slice = ContinuousClock.now
        while listNext < listLines.count {
            if ContinuousClock.now - slice > Self.listSlice {
                // Other clients first: the rest of the list goes on in a later turn of the loop (20 lists
                // of 1,000 x listallinfo held another client's ping 670 ms when each ran to its end).
                busy = true
                core.afterPendingIO {
                    self.busy = false
                    guard !self.closed else { return }
                    self.continueList()
                    self.drainWaiting()
                }
                return
            }
            let index = listNext
            listNext += 1
            let outcome = execute(listLines[index], index: index, inList: true, into: &listOut)
            if case .waitsForLibrary = outcome {
                busy = true
                listNext = index   // run again once the library is in
                return core.whenLibraryReady {
                    self.busy = false
                    guard !self.closed else { return }
                    self.continueList()
                    self.drainWaiting()
                }
            }
            if case .deferred(let work, let name, let arguments) = outcome {
                busy = true
                return runOffLoop(work, name: name, arguments: arguments, index: index, out: listOut) { outcome, out in
                    self.busy = false
                    self.listOut = out
                    if self.endOfListItem(outcome, index) { self.continueList() }
                    self.drainWaiting()
                }
            }
            if case .continuing(let step) = outcome {
                busy = true
                return runLater(step, out: listOut) { out in
                    self.busy = false
                    self.listOut = out
                    if self.endOfListItem(.ok, index) { self.continueList() }
                    self.drainWaiting()
                }
            }
            guard endOfListItem(outcome, index) else { return }
        }
        listOut.line("OK")
        send(listOut.bytes)
        listOut = Response()
        listLines = []
    }

    /// After one command of the list: false when the list ended there (its answer sent).
    private func endOfListItem(_ outcome: Outcome, _ index: Int) -> Bool {
        // The list's answer went over the output buffer: the rest is not run and the client is closed
        // (a list of 1,000 × listallinfo took 1.1 GB and held every client for 105 s).
        if listOut.overflowed {
            listOut = Response()
            listLines = []
            close()
            return false
        }
        switch outcome {
        case .ok, .silent, .deferred, .continuing, .waitsForLibrary:
            if commandListOK { listOut.line("list_OK") }
            return true
        case .error(let bytes):
            send(listOut.bytes + bytes)
        case .idle:
            send(listOut.bytes + ack(MPDError(.argument, "idle in command list"), command: "idle", index: index))
        case .close:
            send(listOut.bytes)
            close()
        }
        listOut = Response()
        listLines = []
        return false
    }

    /// Runs `work` on the core's store thread, then (back on the loop) what it returned, into `out`.
    private func runOffLoop(_ work: @escaping OffLoopWork, name: String, arguments: [String], index: Int, out: Response,
                            then: @escaping (Outcome, Response) -> Void) {
        core.offLoop(work).whenComplete { result in
            guard !self.closed else { return }
            var out = out
            let outcome: Outcome
            do {
                let apply = try result.get()
                try apply(CommandContext(core: self.core, session: self, arguments: arguments), &out)
                outcome = .ok
            } catch {
                outcome = self.failure(error, command: name, index: index)
            }
            self.core.commitQueue()
            then(outcome, out)
        }
    }

    /// Runs the rest of a long answer a slice per turn of the loop (other clients' commands in between),
    /// then `then` with the whole answer.
    private func runLater(_ step: @escaping Continuation, out: Response, then: @escaping @Sendable (Response) -> Void) {
        core.afterPendingIO {
            guard !self.closed else { return }
            var out = out
            if step(&out) { return then(out) }
            self.runLater(step, out: out, then: then)
        }
    }

    enum Outcome {
        case ok
        case error([UInt8])
        case idle(Set<Subsystem>)
        /// No answer at all (`noidle` outside idle).
        case silent
        case close
        /// The command goes on off the loop (`CommandContext.offLoop`).
        case deferred(OffLoopWork, String, [String])
        /// The command's answer goes on in later turns of the loop (`CommandContext.continueLater`).
        case continuing(Continuation)
        /// The command needs the library, still loading: it runs once the view is in (`ServerCore.whenLibraryReady`).
        case waitsForLibrary
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
            return .idle(mask.isEmpty ? Subsystem.all : mask)
        case "noidle":
            // Not idling (the idle was already answered): MPD sends nothing back, and a client that
            // sends idle/noidle in a race counts on that (ncmpcpp does).
            return .silent
        default:
            break
        }
        if !core.libraryReady && !CommandTable.answeredBeforeLibrary.contains(name) { return .waitsForLibrary }
        let context = CommandContext(core: core, session: self, arguments: arguments)
        deferred = nil
        continuation = nil
        do {
            try command.handler(context, &out)
            core.commitQueue()
            if let work = deferred {
                deferred = nil
                return .deferred(work, name, arguments)
            }
            if let step = continuation {
                continuation = nil
                return .continuing(step)
            }
            return .ok
        } catch {
            deferred = nil
            continuation = nil
            core.commitQueue()
            return failure(error, command: name, index: index)
        }
    }

    private func failure(_ error: any Error, command name: String, index: Int) -> Outcome {
        switch error {
        case let error as MPDError: .error(ack(error, command: name, index: index))
        // A predicate the view or the store refuses (a bad regular expression) is the client's error.
        case let error as QueryError: .error(ack(MPDError.badArgument("\(error)"), command: name, index: index))
        default: .error(ack(MPDError(.system, "\(error)"), command: name, index: index))
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

    /// Answers shorter than this are gathered in one buffer (`gathered`) and not counted in `unsentBytes`:
    /// a `ByteBuffer`, a trip down the pipeline and a promise with its closure per answer were most of the
    /// server's own work per `status` or pipelined `stats`. A client that does not read its short answers is
    /// held by the channel's writability instead (its next lines wait, `receive`): the gathered bytes go to
    /// the channel every `countedAnswerBytes`, so they stay bounded.
    static let countedAnswerBytes = 4096

    /// Short answers not yet handed to the channel.
    private var gathered: ByteBuffer?

    private func send(_ bytes: [UInt8]) {
        guard !closed else { return }
        guard unsentBytes + bytes.count <= core.configuration.maximumOutputBuffer else { return close() }
        if bytes.count >= Self.countedAnswerBytes {
            writeGathered()
            unsentBytes += bytes.count
            let count = bytes.count
            // The promise completes on the channel's loop, which is the core's: no lock.
            let promise = channel.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { _ in self.unsentBytes -= count }
            channel.write(channel.allocator.buffer(bytes: bytes), promise: promise)
        } else {
            if gathered == nil { gathered = channel.allocator.buffer(capacity: 1024) }
            gathered!.writeBytes(bytes)
            if gathered!.readableBytes >= Self.countedAnswerBytes { writeGathered() }
        }
        // Answers to lines of one read go out with one flush at its end (`endOfRead`), as mpd sends what a
        // read's commands wrote at once: a flush per answer was a write(2) per command, and 5,000 pipelined
        // `stats` took 8 µs each against mpd's 1 µs. Anything else (an idle, an off-loop answer) goes now.
        // (Flushing every client once after all the loop's ready sockets were read, as mpd does, measured
        // the same for 10 polling clients: 9.8-12.0 against 9.5-10.9 µs of server CPU per command.)
        flushPending = true
        if !inRead { flushNow() }
    }

    private func writeGathered() {
        guard let buffer = gathered else { return }
        gathered = nil
        channel.write(buffer, promise: nil)
    }

    /// Set by the channel handler while it hands over the lines of one read.
    private var inRead = false
    /// Answers are written (or gathered) and not yet flushed.
    private var flushPending = false

    /// The channel handler starts handing over the lines of a read.
    func beginRead() { inRead = true }

    /// The read's lines are handed over: what their answers wrote goes out.
    func endOfRead() {
        inRead = false
        flushNow()
    }

    private func flushNow() {
        guard flushPending, !closed else { return }
        flushPending = false
        writeGathered()
        channel.flush()
    }

    func close() {
        guard !closed else { return }
        closed = true
        core.unregister(self)
        // What was written before (an answer, then the ACK that ends the client) goes out first.
        if flushPending {
            writeGathered()
            channel.flush()
        }
        channel.close(promise: nil)
    }
}

/// Work a command hands off the loop (store calls: PostgreSQL's client blocks, and no store call may
/// stall every other client): it runs on the core's store thread and returns what to do back on the
/// loop, where the core's state may be read and changed and the answer written.
typealias OffLoopWork = @Sendable () throws -> OffLoopApply
typealias OffLoopApply = @Sendable (CommandContext, inout Response) throws -> Void
/// The rest of a long answer, written a slice at a time on the loop: true when it is done.
typealias Continuation = @Sendable (inout Response) -> Bool

/// What a command handler gets: the shared state, its connection, and its arguments.
struct CommandContext: Sendable {
    let core: ServerCore
    let session: ClientSession
    let arguments: [String]

    /// Finishes the command off the loop: `work` runs on the store thread, then what it returns runs on
    /// the loop with the answer. The client's next commands wait for it; other clients do not.
    func offLoop(_ work: @escaping OffLoopWork) { session.deferred = work }

    /// Finishes the answer in later turns of the loop: `step` writes a slice and says whether it is done.
    /// The client's next commands wait for it; other clients are served between the slices.
    func continueLater(_ step: @escaping Continuation) { session.continuation = step }

    /// The library view as it is now (one snapshot for the whole command).
    var view: LibrarySnapshot { core.view.snapshot }

    /// No tag mask when every tag is on (the usual case): looking each tag up cost a hash per field.
    var songs: SongWriter {
        SongWriter(uris: core.uris, enabledTags: session.enabledTags.count == MPDTag.all.count ? nil : session.enabledTags)
    }
}
