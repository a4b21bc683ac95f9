/// TIL's contract: the OpenAPI 3.1 document `openapi.json` beside this file, served byte for
/// byte at `GET /openapi.json`.
///
/// Edit the JSON file itself; Swagger Editor, Redocly and Spectral open it. The build embeds it
/// in the executable (no resource bundle to ship beside the binary): the EmbedTextFiles plugin
/// (`Plugins/`) writes it into one raw string literal, `text`. That literal compiles in about a
/// second at any size; `.embedInCode` took 15 s at today's size and a minute at three times it
/// (README, "The contract"). Tests pin the file to the code: its operations and their
/// `security` to the route table and its guards (`OpenAPIRouteTests`, `ScopeTests`), its
/// bounds to the validation rules (`FieldBoundsTests`), real answers to its schemas
/// (`OpenAPIResponseTests`). `make fuzz-api` runs schemathesis on it.
enum OpenAPIDocument {
    /// The document as served: the file's bytes, unchanged.
    static var bytes: [UInt8] { Array(text.utf8) }
}
