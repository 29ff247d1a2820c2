/// An error answered as `ACK [code@listIndex] {command} message` (MPD's `protocol/Ack.hxx` codes).
public struct MPDError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case notList = 1, argument = 2, password = 3, permission = 4, unknown = 5
        case noExist = 50, playlistMax = 51, system = 52, playlistLoad = 53, updateAlready = 54
        case playerSync = 55, exist = 56
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func badArgument(_ message: String) -> MPDError { MPDError(.argument, message) }
    static let noSuchSong = MPDError(.noExist, "No such song")
    static let badSongIndex = MPDError(.argument, "Bad song index")
    static let noSuchPlaylist = MPDError(.noExist, "No such playlist")
    static let noSuchDirectory = MPDError(.noExist, "No such directory")
    /// `update`'s answer for a path with an empty, `.` or `..` component (it could leave the music directory).
    static let malformedPath = MPDError(.argument, "Malformed path")
    /// A filter's `base` with such a path.
    static let badURI = MPDError(.argument, "Bad URI")
}

/// What a command may do; a client holds a set of these (all of them unless a password is set).
public struct Permission: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let read = Permission(rawValue: 1)
    public static let add = Permission(rawValue: 2)
    public static let control = Permission(rawValue: 4)
    public static let admin = Permission(rawValue: 8)
    public static let all: Permission = [.read, .add, .control, .admin]
}
