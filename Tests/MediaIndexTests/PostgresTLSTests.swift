import Foundation
@testable import MediaIndex
@testable import PostgresStore
import PostgresTestServer
import Testing

/// `sslmode` and `sslrootcert` as libpq reads them, against a real server with `ssl=on` over TCP on
/// loopback (PostgreSQL has no TLS on Unix sockets), its certificate made by openssl in the temp dir.
/// Whether a connection is encrypted is the server's word (`pg_stat_ssl`), not the client's.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresTLSTests {
    /// The TLS server and one database on it.
    static let database: (server: PostgresTestServer, name: String)? = {
        guard let server = PostgresTestServer.withTLS, let locator = try? server.makeDatabase() else { return nil }
        return (server, PostgresTestServer.databaseName(of: locator))
    }()

    /// A HOME without `~/.postgresql/root.crt`, so that libpq's default root file is absent unless a test puts one.
    static let emptyHome = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-tls-home-\(getpid())").path

    static func location(host: String = "127.0.0.1", _ query: String, environment: [String: String] = [:]) throws -> PostgresLocation {
        let (server, name) = try #require(database)
        return try PostgresLocation(url: server.tcpLocator(database: name, host: host, query: query),
                                    environment: ["HOME": emptyHome].merging(environment) { _, new in new })
    }

    /// Whether the server says this connection is encrypted.
    static func encrypted(_ location: PostgresLocation) throws -> Bool {
        let session = try PostgresSession(location)
        return try session.run { s in try s.value("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") } == .integer(1)
    }

    static var root: String { get throws { try #require(database).server.certificates + "/root.crt" } }
    static var otherRoot: String { get throws { try #require(database).server.certificates + "/other-root.crt" } }

    @Test func disableIsPlainAndTheDefaultPreferEncrypts() throws {
        #expect(try !Self.encrypted(Self.location("sslmode=disable")))
        #expect(try Self.encrypted(Self.location("")))
        #expect(try Self.encrypted(Self.location("sslmode=prefer")))
        #expect(try !Self.encrypted(Self.location("sslmode=allow")), "allow tries without TLS first, as libpq")
    }

    /// As libpq: `prefer` tries again without TLS when the server refuses the TLS connection, `allow` again
    /// with TLS when it refuses the plain one; the strict modes do not.
    @Test func preferFallsBackToPlainTextAndAllowToTLS() throws {
        let (server, _) = try #require(Self.database)
        func location(_ database: String, _ mode: String) throws -> PostgresLocation {
            try PostgresLocation(url: server.tcpLocator(database: database, query: "sslmode=\(mode)"), environment: ["HOME": Self.emptyHome])
        }
        #expect(try !Self.encrypted(location("plain_only", "prefer")))
        #expect(try Self.encrypted(location("tls_only", "prefer")))
        #expect(try !Self.encrypted(location("plain_only", "allow")))
        #expect(try Self.encrypted(location("tls_only", "allow")))
        let require = try #require(throws: IndexError.self) { try Self.encrypted(location("plain_only", "require")) }
        #expect("\(require)".contains("pg_hba.conf"), "the server's words: \(require)")
        #expect(throws: IndexError.self) { try Self.encrypted(location("tls_only", "disable")) }
    }

    @Test func requireEncryptsWithoutCheckingTheCertificate() throws {
        #expect(try Self.encrypted(Self.location("sslmode=require")))
        // PGSSLMODE when the locator says nothing; the locator wins over it.
        #expect(try Self.encrypted(Self.location("", environment: ["PGSSLMODE": "require"])))
        #expect(try !Self.encrypted(Self.location("sslmode=disable", environment: ["PGSSLMODE": "require"])))
    }

    @Test func verifyFullWithTheRightRootWorksByNameAndByAddress() throws {
        let root = try Self.root
        #expect(try Self.encrypted(Self.location(host: "localhost", "sslmode=verify-full&sslrootcert=\(root)")))
        #expect(try Self.encrypted(Self.location("sslmode=verify-full&sslrootcert=\(root)")))
        #expect(try Self.encrypted(Self.location("sslmode=verify-ca", environment: ["PGSSLROOTCERT": root])))
    }

    @Test func aWrongRootFailsWithOneClearLine() throws {
        let other = try Self.otherRoot
        for mode in ["verify-full", "verify-ca"] {
            let location = try Self.location(host: "localhost", "sslmode=\(mode)&sslrootcert=\(other)")
            let error = try #require(throws: IndexError.self) { try PostgresSession(location) }
            let text = "\(error)"
            #expect(text.contains("certificate") && text.contains(other), "\(text)")
            #expect(!text.contains("\n"), "\(text)")
        }
    }

    @Test func verifyFullRefusesACertificateForAnotherName() throws {
        // The certificate names localhost and 127.0.0.1; 127.0.0.2 also reaches the server, under another name.
        let location = try Self.location(host: "127.0.0.2", "sslmode=verify-full&sslrootcert=\(Self.root)")
        let error = try #require(throws: IndexError.self) { try PostgresSession(location) }
        #expect("\(error)".contains("127.0.0.2"), "\(error)")
        // verify-ca does not check the name.
        #expect(try Self.encrypted(Self.location(host: "127.0.0.2", "sslmode=verify-ca&sslrootcert=\(Self.root)")))
    }

    /// Issue 38: NIO SSL accepted a trusted certificate carrying the server's IP whatever the name asked for;
    /// libpq checks a name against the certificate's DNS names only (its common name is ignored when it has
    /// subject alternative names, as this one has: CN=localhost, SAN IP:127.0.0.1).
    @Test func verifyFullRefusesAnAddressOnlyCertificateForAName() throws {
        let server = try #require(PostgresTestServer.withIPOnlyCertificate)
        let name = PostgresTestServer.databaseName(of: try server.makeDatabase())
        func location(_ host: String) throws -> PostgresLocation {
            try PostgresLocation(url: server.tcpLocator(database: name, host: host, query: "sslmode=verify-full&sslrootcert=\(server.certificates)/root.crt"),
                                 environment: ["HOME": Self.emptyHome])
        }
        let error = try #require(throws: IndexError.self) { try PostgresSession(location("localhost")) }
        #expect("\(error)".contains("the server's certificate does not name localhost"), "\(error)")
        #expect(try Self.encrypted(location("127.0.0.1")), "by its address the certificate is right")
        // The right certificate by name still works (the other server's names localhost).
        #expect(try Self.encrypted(Self.location(host: "localhost", "sslmode=verify-full&sslrootcert=\(Self.root)")))
    }

    /// Issue 38: a server asking for a password none was given for read "cannot reach the server" and driver text.
    @Test func aMissingPasswordIsSaidSo() throws {
        let (server, _) = try #require(Self.database)
        let location = try PostgresLocation(url: server.tcpLocator(database: "password_only", query: "sslmode=disable"),
                                            environment: ["HOME": Self.emptyHome, "PGPASSFILE": "/nonexistent"])
        let error = try #require(throws: IndexError.self) { try PostgresSession(location) }
        #expect("\(error)".contains("asks for mlib's password and none was given"), "\(error)")
        #expect(!"\(error)".contains("cannot reach"))
    }

    @Test func libpqsDefaultsForTheRootFile() throws {
        // verify-* with no root file anywhere: refused before connecting, naming the file it looked for.
        let missing = try Self.location("sslmode=verify-full")
        let error = try #require(throws: IndexError.self) { try PostgresSession(missing) }
        #expect("\(error)".contains(Self.emptyHome + "/.postgresql/root.crt"), "\(error)")
        // ~/.postgresql/root.crt is used when present, and makes `require` check the certificate (as libpq).
        let home = Self.emptyHome + "-with-root"
        try FileManager.default.createDirectory(atPath: home + "/.postgresql", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try? FileManager.default.removeItem(atPath: home + "/.postgresql/root.crt")
        try FileManager.default.copyItem(atPath: Self.otherRoot, toPath: home + "/.postgresql/root.crt")
        let require = try Self.location("sslmode=require", environment: ["HOME": home])
        #expect(require.tls.mode == .verifyCA)
        #expect(throws: IndexError.self) { try PostgresSession(require) }
        #expect(try Self.location("sslmode=require").tls.mode == .require)
    }

    @Test func badSettingsAreRefusedWithLibpqsWords() throws {
        let error = try #require(throws: IndexError.self) { try Self.location("sslmode=verify") }
        #expect("\(error)".contains("invalid sslmode value: \"verify\""), "\(error)")
        let weak = try #require(throws: IndexError.self) { try Self.location("sslmode=require&sslrootcert=system") }
        #expect("\(weak)".contains("sslrootcert=system"), "\(weak)")
        #expect(try Self.location("sslrootcert=system").tls.mode == .verifyFull)
    }

    /// A TLS failure is worded from OpenSSL's reason, not printed as NIO's error value.
    @Test func aHandshakeFailureIsInWords() {
        let text = "sslError([Error: 268435703 error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER])"
        #expect(PostgresTLS.openSSLReason(text) == "wrong version number")
        #expect(PostgresTLS.openSSLReason("handshakeFailed") == nil)
    }

    @Test func aUnixSocketIgnoresTheMode() throws {
        // As libpq: no TLS on a socket, so `require` there connects in the clear rather than failing.
        let (server, name) = try #require(Self.database)
        let location = try PostgresLocation(url: server.locator(database: name) + "&sslmode=require", environment: ["HOME": Self.emptyHome])
        #expect(try !Self.encrypted(location))
    }
}
