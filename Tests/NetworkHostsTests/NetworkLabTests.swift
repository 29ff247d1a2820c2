import Foundation
import Testing
import TestSupport

/// The harness itself: three hosts, each with its own host name and home and its own view of one path,
/// reaching the server by name; everything gone after `close()`.
@Suite(.serialized, .needsNetworkLab)
struct NetworkLabTests {
    @Test func eachHostHasItsOwnNameHomeAndViewOfOnePathAndCloseRemovesEverything() throws {
        let lab = try NetworkLab(hosts: ["alpha", "beta", "gamma"])
        let prefix = lab.prefix
        defer { lab.close() }
        for host in lab.hosts {
            try Data(host.name.utf8).write(to: host.music.appendingPathComponent("whose"))
            let seen = try host.run("/bin/sh", ["-c", "hostname; cat \"$0\"/whose; echo; echo $HOME; getent hosts db.lab", lab.music.path])
            #expect(seen.status == 0, "\(seen.stderr)")
            let lines = seen.out.split(separator: "\n").map(String.init)
            #expect(Array(lines.prefix(3)) == [host.name, host.name, host.home.path], "\(seen.out)")
            #expect(lines.count == 4 && lines[3].hasPrefix(NetworkLab.serverAddress) && lines[3].hasSuffix(NetworkLab.serverName), "\(seen.out)")
        }
        #expect(!FileManager.default.fileExists(atPath: lab.music.appendingPathComponent("whose").path), "the test's own view of the path is its own")
        let database = try lab.server.makeDatabase()
        let ls = try lab.hosts[2].mlib(["scan", "--quiet", "--library", lab.server.locator(database: database), lab.music.path])
        #expect(ls.status == 0, "gamma reaches the server: \(ls.stderr)")
        #expect(try lab.server.hostSessions(database: database) == 0)
        lab.close()
        let left = try NetworkLab.command(NetworkLab.ip, ["netns", "list"])
        #expect(!left.contains(prefix), "namespaces left: \(left)")
        #expect(!FileManager.default.fileExists(atPath: lab.directory.path))
    }
}
