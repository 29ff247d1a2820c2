import Foundation
import Testing
import TestSupport

/// Issue 38, "a NAS share mounted on two hosts is indexed twice, plays and ratings split between the
/// copies": each host declares the share (`mlib root add DIR --share NAME`, at the same mount point), then
/// both scan it: one set of items, and a play on one host counts on the item the other lists.
@Suite(.serialized, .needsNetworkLab)
struct SharedShareTests {
    @Test
    func aShareMountedOnTwoHostsIsOneSetOfItems() throws {
        let lab = try NetworkLab(hosts: ["alpha", "beta"])
        defer { lab.close() }
        let (alpha, beta) = (lab.hosts[0], lab.hosts[1])
        try lab.share(on: [alpha, beta])
        let database = try lab.server.makeDatabase()
        let locator = lab.server.locator(database: database)
        for i in 0..<3 { try alpha.song("Shared \(i)", at: "s\(i).mp3") }
        for host in [alpha, beta] {
            let join = try host.mlib(["root", "add", lab.music.path, "--share", "nas", "--library", locator])
            try #require(join.status == 0, "root add --share on \(host.name): \(join.stderr)")
        }
        for host in [alpha, beta] {
            let scan = try host.mlib(["scan", "--quiet", "--library", locator, lab.music.path])
            #expect(scan.status == 0, "scan on \(host.name): \(scan.stderr)")
        }
        #expect(try lab.server.sql("SELECT count(*) FROM items", database: database) == "3", "one item per file of the share")
        let play = try beta.mlib(["play", "--sink", "null:fast", "--record-plays", "--library", locator, "title:Shared 1"])
        #expect(play.status == 0, "play on beta: \(play.stderr)")
        let listed = try alpha.mlib(["ls", "--library", locator, "-f", "${title} ${playCount}", "host:nas"])
        #expect(listed.out.split(separator: "\n").sorted() == ["Shared 0 0", "Shared 1 1", "Shared 2 0"],
                "alpha lists the share's items with beta's play: \(listed.out) \(listed.stderr)")
    }
}
