import Foundation
import PackagePlugin

/// Compiles a target's `Assets/` folder into the target: one Swift source (`embed-assets` writes it) with
/// each file as a base64 string literal, its content type and an ETag. No resource bundle beside the binary,
/// so a `--static-swift-stdlib` build copied alone serves the web app. (A base64 literal, not a `[UInt8]`
/// array literal: the type checker takes seconds per thousand array elements.)
@main
struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let assets = target.directoryURL.appending(path: "Assets")
        let enumerator = FileManager.default.enumerator(at: assets, includingPropertiesForKeys: [.isRegularFileKey])
        let files = (enumerator?.allObjects ?? []).compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets+Files.swift")
        // The file list is in the arguments: a file added or removed changes the command, which then runs again.
        return [.buildCommand(displayName: "Embedding \(files.count) files of \(target.name)/Assets",
                              executable: try context.tool(named: "embed-assets").url,
                              arguments: [assets.path, output.path] + files.map(\.path),
                              inputFiles: files, outputFiles: [output])]
    }
}
