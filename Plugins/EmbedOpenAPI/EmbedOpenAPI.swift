import PackagePlugin

/// Embeds the target's one `openapi.json` in its code, as `OpenAPIDocument.text`: a Swift file
/// generated at build time, holding the document as one raw string literal (`EmbedText`).
///
/// The document stays a plain JSON file that Swagger Editor, Redocly and Spectral open, and the
/// executable carries it without a resource bundle. Rebuilt whenever the file changes.
@main
struct EmbedOpenAPI: BuildToolPlugin {
    struct NoDocument: Error, CustomStringConvertible {
        let description: String
    }

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let documents = module.sourceFiles.filter { $0.url.lastPathComponent == "openapi.json" }
        guard documents.count == 1, let document = documents.first else {
            throw NoDocument(description: "target \(target.name) needs exactly one openapi.json, found \(documents.count)")
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument+Text.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(document.url.lastPathComponent) in \(target.name)",
                executable: try context.tool(named: "EmbedText").url,
                arguments: [document.url.path(), output.path(), "OpenAPIDocument", "text"],
                inputFiles: [document.url],
                outputFiles: [output])
        ]
    }
}
