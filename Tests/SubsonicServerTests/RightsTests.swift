import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// What an ordinary user may do through the API, and what an answer to a failed login says (issue 37).
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct RightsTests {
    static func error(_ body: Data) -> (code: Int, message: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let response = object["subsonic-response"] as? [String: Any],
              let error = response["error"] as? [String: Any] else { return nil }
        return ((error["code"] as? Int) ?? -1, (error["message"] as? String) ?? "")
    }

    @Test func scansAreForAdminsAndFailedLoginsDoNotSayWhetherAUserExists() async throws {
        let library = try TestLibrary()
        defer { library.remove() }
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        try #require(try mlib(["user", "add", "root", "--admin", "--password", "rootpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }

        let bob = try await http("\(server.base)/startScan?u=bob&p=bobpass&c=t&v=1.16.1&f=json")
        #expect(Self.error(bob.body)?.code == 50, "a user who is not an admin cannot start a scan: \(String(decoding: bob.body, as: UTF8.self))")
        let root = try await http("\(server.base)/startScan?u=root&p=rootpass&c=t&v=1.16.1&f=json")
        #expect(Self.error(root.body) == nil, "an admin can")

        // The same answer for a known and an unknown name, whatever is missing or wrong.
        for rest in ["", "&p=wrong", "&t=0123456789abcdef0123456789abcdef&s=salt", "&t=0123", "&p=enc:zz"] {
            let known = try await http("\(server.base)/ping?u=bob\(rest)&c=t&v=1.16.1&f=json")
            let unknown = try await http("\(server.base)/ping?u=nobody\(rest)&c=t&v=1.16.1&f=json")
            let (a, b) = (Self.error(known.body), Self.error(unknown.body))
            #expect(a != nil && a?.code == b?.code && a?.message == b?.message, "u=bob\(rest): \(String(describing: a)) vs u=nobody: \(String(describing: b))")
        }
        // …and in the same time: the median of 200 wrong passwords each, interleaved.
        var known: [Double] = [], unknown: [Double] = []
        for n in 0..<400 {
            let name = n % 2 == 0 ? "bob" : "nobody"
            let start = ContinuousClock.now
            _ = try await http("\(server.base)/ping?u=\(name)&p=wrong\(n)&c=t&v=1.16.1&f=json")
            let elapsed = (ContinuousClock.now - start).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            if n % 2 == 0 { known.append(seconds) } else { unknown.append(seconds) }
        }
        let (mk, mu) = (known.sorted()[known.count / 2], unknown.sorted()[unknown.count / 2])
        print("failed login, median of 200: known user \(String(format: "%.3f", mk * 1000)) ms, unknown \(String(format: "%.3f", mu * 1000)) ms")
        #expect(abs(mk - mu) < max(mk, mu) * 0.15, "known \(mk * 1000) ms vs unknown \(mu * 1000) ms")
    }
}
