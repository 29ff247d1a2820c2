import Foundation
import Testing
import TestSupport

/// Issue 38, TLS as libpq: a server whose (trusted) certificate names only its address, 10.38.0.1, is
/// refused under verify-full to the name `db.lab` (the host resolves it from its /etc/hosts), and accepted
/// to the address.
@Suite(.serialized, .needsNetworkLab)
struct NameCheckTests {
    @Test func anIPOnlyCertificateIsRefusedForTheServersName() throws {
        let lab = try NetworkLab(hosts: ["alpha"], subjectAltName: "IP:\(NetworkLab.serverAddress)")
        defer { lab.close() }
        let alpha = lab.hosts[0]
        let database = try lab.server.makeDatabase()
        try alpha.song("Song")
        try #require(try alpha.mlib(["scan", "--quiet", "--library", lab.server.locator(database: database), lab.music.path]).status == 0)
        let tls = "sslmode=verify-full&sslrootcert=\(lab.server.certificates)/root.crt"
        let byName = try alpha.mlib(["ls", "--library", lab.server.locator(database: database, query: tls)])
        #expect(byName.status != 0 && byName.stderr.contains("cannot connect securely"), "status \(byName.status): \(byName.stderr)")
        #expect(!byName.out.contains("Song"))
        let byAddress = try alpha.mlib(["ls", "--library", "postgres://mlib@\(NetworkLab.serverAddress)/\(database)?\(tls)"])
        #expect(byAddress.status == 0 && byAddress.out.contains("Song"), "status \(byAddress.status): \(byAddress.stderr)")
    }
}
