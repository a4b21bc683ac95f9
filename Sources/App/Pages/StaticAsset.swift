import Web

/// A first-party file the pages load (the stylesheet, the passkeys script): one response made
/// at boot and served as it is, cached for an hour, never content-sniffed.
enum StaticAsset {
    static func response(_ text: String, contentType: String) -> Response {
        Response(status: .ok, headers: [
            "Content-Type": contentType,
            "Cache-Control": "public, max-age=3600",
            "X-Content-Type-Options": "nosniff",
        ], body: Array(text.utf8))
    }
}
