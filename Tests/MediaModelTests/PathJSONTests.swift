import Foundation
import MediaModel
import Testing

/// A path that is not UTF-8 looks the same in every command's JSON: `failures --json` and `scan --json`
/// (Codable) wrote {"bytes"} where `ls --json` wrote {"bytes", "lossy"}.
struct PathJSONTests {
    @Test func codableAndJSONValueAgree() throws {
        let path = MediaPath(bytes: Array("/music/caf".utf8) + [0xE9] + Array(".mp3".utf8))
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode([path])) as! [[String: Any]]
        let written = try JSONSerialization.jsonObject(with: Data(JSONValue.array([path.json]).serialized().utf8)) as! [[String: Any]]
        #expect(encoded[0]["lossy"] as? String == written[0]["lossy"] as? String)
        #expect((encoded[0]["bytes"] as? [Int]) == (written[0]["bytes"] as? [Int]))
        #expect(try JSONDecoder().decode([MediaPath].self, from: JSONEncoder().encode([path])) == [path])
    }
}
