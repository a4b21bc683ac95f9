import PackagePlugin

/// Embeds a target's known text files in its code (`EmbedText`): for each, a Swift file
/// generated at build time that holds the file as one raw string literal, in a static member of
/// a type of the target. Today: App's `openapi.json` as `OpenAPIDocument.text`, and
/// CommonPasswords' `common-passwords.txt` as `CommonPasswords.text`.
///
/// The files stay plain files (Swagger Editor opens the document; a script regenerates the
/// list), and the executable carries them without a resource bundle. Rebuilt whenever a file changes.
@main
struct EmbedTextFiles: BuildToolPlugin {
    /// A file this plugin knows, and where its text goes.
    struct Embedding {
        let fileName: String
        let type: String
        let member: String
    }

    static let embeddings = [
        Embedding(fileName: "openapi.json", type: "OpenAPIDocument", member: "text"),
        Embedding(fileName: "common-passwords.txt", type: "CommonPasswords", member: "text"),
    ]

    struct NothingToEmbed: Error, CustomStringConvertible {
        let description: String
    }

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let commands = try Self.embeddings.compactMap { embedding -> Command? in
            let files = module.sourceFiles.filter { $0.url.lastPathComponent == embedding.fileName }
            guard let file = files.first else { return nil }
            guard files.count == 1 else {
                throw NothingToEmbed(description: "target \(target.name) has \(files.count) files named \(embedding.fileName)")
            }
            let output = context.pluginWorkDirectoryURL.appending(path: "\(embedding.type)+Embedded.swift")
            return .buildCommand(
                displayName: "Embedding \(embedding.fileName) in \(target.name)",
                executable: try context.tool(named: "EmbedText").url,
                arguments: [file.url.path(), output.path(), embedding.type, embedding.member],
                inputFiles: [file.url],
                outputFiles: [output])
        }
        guard !commands.isEmpty else {
            let names = Self.embeddings.map(\.fileName).joined(separator: " or ")
            throw NothingToEmbed(description: "target \(target.name) has no \(names) to embed")
        }
        return commands
    }
}
