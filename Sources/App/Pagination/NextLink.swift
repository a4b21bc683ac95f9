import Foundation
import Web

/// The `Link` header (RFC 8288) that points at the next page: a relative reference with the
/// request's own path and query, `limit` and `cursor` replaced — so `?term=` and any other
/// parameter stay as they were.
enum NextLink {
    static func header(for request: Request, limit: Int, cursor: String) -> String {
        var items = request.query.pairs
            .filter { $0.name != "limit" && $0.name != "cursor" }
            .map { encode($0.name, keeping: unreserved) + "=" + encode($0.value, keeping: unreserved) }
        items.append("limit=\(limit)")
        items.append("cursor=\(cursor)")
        return "<" + encode(request.path, keeping: pathCharacters) + "?" + items.joined(separator: "&") + #">; rel="next""#
    }

    /// RFC 3986 unreserved characters: a query name or value made of these needs no escape.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// What a path may hold as sent (its escapes included); anything else, `>` above all,
    /// would end the link early.
    private static let pathCharacters = unreserved.union(CharacterSet(charactersIn: "/%:@!$&'()*+,;="))

    private static func encode(_ text: String, keeping allowed: CharacterSet) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
