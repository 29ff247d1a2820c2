import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel

/// `mlib user`: the library's accounts (`Library.users`: the API server's, MPD's `password user:secret`, `--user`).
struct User: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, remove or list the users of the library (the API server's and MPD's logins, --user).",
        discussion: """
            Users live in the library (both stores). Each keeps their own ratings, plays, skips and last \
            played; the owner's are the items' own. The first user added to a library that has no owner \
            account becomes the owner (see "Users and per-user values" in mlib(1)); the first account of a \
            library is an admin unless added with --no-admin, and `mlib user admin` gives or takes the rights \
            later (the API does not change them). Commands act as a user \
            with --user NAME or MLIB_USER; the MPD server's clients with password NAME:SECRET. Their passwords are stored encrypted with a key kept in \
            a file of mode 0600 beside the library (LIBRARY.users-key; for PostgreSQL \
            ~/.config/mlib/DATABASE.users-key): Subsonic's token authentication needs the clear password on \
            the server, so it cannot be a one-way hash. `mlib user add` makes the key file when there is none. \
            Each user gets an OpenSubsonic API key, printed once when it is made (by `mlib user add`, and by \
            `mlib user key NAME --reset`, which makes a new one); the library keeps only its SHA-256 hash \
            (a key stored in clear by an older mlib is hashed the first time the users are opened).

            The password is read from a line of standard input (without echo on a terminal), or from \
            --password, which every user of the machine sees in ps while the command runs (a warning says \
            so; the option stays for scripts that have no other way).

            Examples:
              mlib user add alice
              echo 'secret' | mlib user add bob --admin
              mlib user admin bob --revoke
              mlib user passwd alice
              mlib user key alice --reset

            \(ExitStatus.help(one: "no such user, or the name is taken"))
            """,
        subcommands: [UserList.self, UserAdd.self, UserRemove.self, UserPasswd.self, UserAdmin.self, UserKey.self],
        defaultSubcommand: UserList.self)

    /// The password from the option, a terminal prompt without echo, or a line of standard input.
    static func password(_ given: String?) throws -> String {
        if let given {
            // Kept for scripts, but every user of the machine sees a process's arguments (ps, /proc/PID/cmdline).
            printError("warning: --password shows in ps to every user of this machine; give the password on standard input instead")
            return given
        }
        if isatty(STDIN_FILENO) != 0, let typed = getpass("password: ") { return String(cString: typed) }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw ValidationError("no password given") }
        return line
    }

    static func directory(_ options: LibraryOptions, keyFile: String?, createKey: Bool) throws -> Users {
        do { return try Users(library: try options.library(), keyFile: keyFile, createKey: createKey) }
        catch let error as UsersError { throw CLIError.input(error.message) }
    }

    /// Library errors as the CLI reports every error; the API's own as one line, status 1.
    @discardableResult
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as UsersError { throw CLIError.input(error.message) }
    }
}

struct KeyFileOption: ParsableArguments {
    @Option(help: ArgumentHelp("The users' key file (default: beside the library).", valueName: "path"))
    var keyFile: String?
}

struct UserList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the users.",
                                                    discussion: ExitStatus.help(one: nil))
    @OptionGroup var libraryOptions: LibraryOptions
    @Flag(help: "Print a JSON array of {name, admin, owner, created} (created: ISO 8601, UTC).") var json = false

    func run() throws {
        let store = try libraryOptions.library().store
        if json {
            let rows = try store.users().map { user in
                JSONValue.object([("name", .string(user.name)), ("admin", .bool(user.isAdmin)), ("owner", .bool(user.isOwner)),
                                  ("created", .string(user.created.formatted(.iso8601)))])
            }
            print(JSONValue.array(rows).serialized(pretty: true))
            return
        }
        // The owner is marked: theirs are the items' own values, and what mlib reads without --user.
        for user in try store.users() {
            let marks = [user.isAdmin ? "admin" : nil, user.isOwner ? "owner" : nil].compactMap { $0 }
            print(user.name + (marks.isEmpty ? "" : " (" + marks.joined(separator: ", ") + ")"))
        }
    }
}

struct UserAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a user.",
                                                    discussion: ExitStatus.help(one: "the name is taken"))
    @OptionGroup var libraryOptions: LibraryOptions
    @OptionGroup var key: KeyFileOption
    @Argument(help: ArgumentHelp("The user's name.", valueName: "name")) var name: String
    @Option(help: ArgumentHelp("The password (else read from standard input).", valueName: "password")) var password: String?
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "An admin (manages users, radio stations and everyone's shares, starts scans through the API and the web app).",
        discussion: "Default: the library's first account is an admin, later ones are not."))
    var admin: Bool?

    func run() throws {
        let users = try User.directory(libraryOptions, keyFile: key.keyFile, createKey: true)
        let secret = try User.password(password)
        let account = try User.reporting { try users.add(name: name, password: secret, admin: admin) }
        print("added \(name)" + (account.isAdmin ? " (admin)" : ""))
        // Shown this once: the library keeps only its hash.
        if let key = account.apiKey { print("apiKey=\(key)") }
    }
}

struct UserRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a user (with their stars and play queue; their playlists become the library's, still private).",
                                                    discussion: ExitStatus.help(one: "no such user"))
    @OptionGroup var libraryOptions: LibraryOptions
    @OptionGroup var key: KeyFileOption
    @Argument(help: ArgumentHelp("The user's name.", valueName: "name")) var name: String

    func run() throws {
        let users = try User.directory(libraryOptions, keyFile: key.keyFile, createKey: false)
        try User.reporting { try users.remove(name: name) }
        print("removed \(name)")
    }
}

struct UserPasswd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "passwd", abstract: "Set a user's password.",
                                                    discussion: ExitStatus.help(one: "no such user"))
    @OptionGroup var libraryOptions: LibraryOptions
    @OptionGroup var key: KeyFileOption
    @Argument(help: ArgumentHelp("The user's name.", valueName: "name")) var name: String
    @Option(help: ArgumentHelp("The new password (else read from standard input).", valueName: "password")) var password: String?

    func run() throws {
        let users = try User.directory(libraryOptions, keyFile: key.keyFile, createKey: false)
        let secret = try User.password(password)
        try User.reporting { try users.setPassword(name: name, to: secret) }
        print("changed the password of \(name)")
    }
}

/// Admin rights given or taken after the account was made (the API refuses to change them: `updateUser`).
struct UserAdmin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Make a user an admin, or with --revoke an ordinary user again.",
        discussion: "Their ratings, plays, playlists and API key stay as they are. " + ExitStatus.help(one: "no such user"))
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("The user's name.", valueName: "name")) var name: String
    @Flag(help: "Take the admin rights away instead.") var revoke = false

    func run() throws {
        let store = try libraryOptions.library().store
        guard try store.setAdmin(of: name, to: !revoke) else { throw CLIError.input(UsersError.notFound("User \"\(name)\"").message) }
        print(revoke ? "\(name) is no longer an admin" : "\(name) is an admin")
        if revoke, try !store.users().contains(where: \.isAdmin) {
            printError("warning: the library has no admin now: no one can manage users or radio stations or start a scan through the API (mlib user admin NAME)")
        }
    }
}

struct UserKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Make a new OpenSubsonic API key for a user and print it (the old one stops working).",
        discussion: "The library keeps only the key's SHA-256 hash, so a key is shown once, when made: with --reset. " + ExitStatus.help(one: "no such user"))
    @OptionGroup var libraryOptions: LibraryOptions
    @OptionGroup var key: KeyFileOption
    @Argument(help: ArgumentHelp("The user's name.", valueName: "name")) var name: String
    @Flag(help: "Make the new key (required: the old one cannot be shown).") var reset = false

    func validate() throws {
        if !reset { throw ValidationError("a stored API key cannot be shown (only its hash is kept): make a new one with --reset") }
    }

    func run() throws {
        let users = try User.directory(libraryOptions, keyFile: key.keyFile, createKey: false)
        let made = try User.reporting { try users.renewAPIKey(name: name) }
        print("apiKey=\(made)")
    }
}
