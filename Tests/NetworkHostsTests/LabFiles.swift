import Foundation
import TestSupport

extension LabHost {
    /// A copy of `mp3-id3v24.mp3` at `path` in this host's music, titled `title` (written by `mlib tag
    /// --files` from the test's side: the file's tags are real, and differ from host to host).
    @discardableResult
    func song(_ title: String, at path: String = "song.mp3") throws -> URL {
        let file = try put("mp3-id3v24.mp3", at: path)
        let tag = try ChildProcess.run(ChildProcess.mlib.path, ["tag", "--yes", "--files", file.path, "title=\(title)"],
                                       environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config"])
        guard tag.status == 0 else { throw TestFailure("mlib tag --files \(file.path): \(tag.stderr)") }
        return file
    }
}
