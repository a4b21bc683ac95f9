/// TIL's contract: the OpenAPI 3.1 document `openapi.json` beside this file, served byte for
/// byte at `GET /openapi.json`.
///
/// Edit the JSON file itself; Swagger Editor, Redocly and Spectral open it. The build embeds it
/// in the executable (no resource bundle to ship beside the binary): the EmbedOpenAPI plugin
/// (`Plugins/`) writes it into one raw string literal, `text`, which compiles in about a second
/// at any size, where `.embedInCode` takes minutes. Tests pin it to the code: its operations
/// and their `security` to the route table and its guards, its bounds to the validation rules,
/// and real answers to its schemas (`Tests/AppTests/OpenAPI*Tests.swift`); `make fuzz-api` runs
/// schemathesis on it.
enum OpenAPIDocument {
    /// The document as served: the file's bytes, unchanged.
    static var bytes: [UInt8] { Array(text.utf8) }
}
