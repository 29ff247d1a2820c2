import Foundation
import Testing
import TestSupport

/// Issue 38, "a host is its host name, with no safeguard": two machines of one name (two Raspberry Pis)
/// with the same root path deleted each other's items on every scan; a renamed host lost its roots. On the
/// lab each host has its own home (so its own host id) and its host name from `unshare --uts`.
@Suite(.serialized, .needsNetworkLab)
struct HostNameTests {
    @Test func twoHostsOfOneNameAreToldApartAndARenamedHostKeepsItsRoots() throws {
        let lab = try NetworkLab(hosts: ["pi", "pi"])
        defer { lab.close() }
        let (first, second) = (lab.hosts[0], lab.hosts[1])
        let database = try lab.server.makeDatabase()
        let locator = lab.server.locator(database: database)
        try first.song("First pi's song")
        try second.song("Second pi's song")
        try #require(try first.mlib(["scan", "--quiet", "--library", locator, lab.music.path]).status == 0)
        let before = try lab.server.sql("SELECT id, host, \"title\" FROM items", database: database)

        // The second pi: refused with a message, the first pi's item untouched.
        let refused = try second.mlib(["scan", "--quiet", "--library", locator, lab.music.path])
        #expect(refused.status != 0 && refused.stderr.contains("another host named 'pi'"), "status \(refused.status): \(refused.stderr)")
        #expect(try first.mlib(["scan", "--quiet", "--library", locator]).status == 0)
        #expect(try lab.server.sql("SELECT id, host, \"title\" FROM items", database: database) == before, "the first pi's item kept")
        // Named apart, the second pi has a root of its own at the same path.
        second.name = "pi2"
        let own = try second.mlib(["scan", "--quiet", "--library", locator, lab.music.path])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(try lab.server.sql("SELECT count(*) FROM items", database: database) == "2")

        // The first pi renamed: a plain `mlib scan` (cron's) still scans its roots, nothing duplicated.
        first.name = "kitchen"
        let renamed = try first.mlib(["scan", "--library", locator])
        #expect(renamed.status == 0, "scan after the rename: \(renamed.stderr)")
        #expect(try lab.server.sql("SELECT id, host, \"title\" FROM items WHERE host = '\(first.id ?? "")'", database: database) == before)
        #expect(try lab.server.sql("SELECT count(*) FROM items", database: database) == "2")
        #expect(try lab.server.sql("SELECT name FROM hosts WHERE id = '\(first.id ?? "")'", database: database) == "kitchen")
    }
}
