import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// The household's accounts through the API (`getUser`, `getUsers`, `createUser`, `updateUser`,
/// `deleteUser`, `changePassword`) on both stores: an ordinary user reads and changes only their own;
/// an admin manages the others but cannot delete themselves or the library's owner, nor make an admin
/// (that is `mlib user`'s). Driven by `Scripts/users_client.py`, answers validated against the OpenAPI
/// description.
@Suite(.serialized, .enabled(if: pythonClientInstalled, "python3 with openapi-schema-validator missing (scripts/install-deps.sh)"))
struct UserAccountCallsTests {
    @Test(arguments: Store.available)
    func anAdminManagesAccountsAndNobodyElseDoes(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/users_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password, Paths.openAPI.path])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        func code(_ key: String) -> Int? { summary[key] as? Int }
        func text(_ key: String) -> String? { summary[key] as? String }
        // bob, not an admin: refused (50), and nothing changed.
        for key in ["bobGetUsers", "bobGetAdmin", "bobCreate", "bobDeleteAdmin", "bobChangesAdminPassword"] { #expect(code(key) == 50, "\(key)") }
        #expect(text("adminGetsBob") == "bob")
        #expect(text("adminCreatesCarol") == "ok")
        #expect(summary["carolLogsIn"] as? Bool == false, "carol logs in with the enc: password, not an admin")
        #expect(summary["users"] as? [String] == ["alice", "bob", "carol"])
        #expect(code("adminMakesCarolAdmin") == 0, "adminRole is refused, not ignored")
        for key in ["adminSetsCarolsPassword", "carolNewPassword", "bobChangesOwnPassword", "bobNewPassword", "adminDeletesCarol"] {
            #expect(text(key) == "ok", "\(key): \(String(describing: summary[key]))")
        }
        #expect(code("adminDeletesSelf") == 50)
        #expect(summary["usersAfter"] as? [String] == ["alice", "bob"])
        #expect(code("deleteUnknown") == 70)
        #expect(server.stop() == 0)
        // The CLI agrees.
        let listed = try mlib(["user", "list", "--library", library.library])
        #expect(listed.out.contains("bob") && !listed.out.contains("carol"), "\(listed.out)")
    }
}
