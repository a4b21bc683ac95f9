import Crypt
import Foundation
import Web

/// The opaque `?cursor=` of a paged list: base64url of a small JSON payload (which list, the
/// last row's sort key) followed by an 8-byte check over it.
///
/// The check is a plain SHA-256 prefix, not a secret MAC: it catches a cursor that was cut,
/// edited or built by hand, and one from another list, with a 400 instead of a wrong page. A
/// forged cursor could only move where a public list starts — the route's own filters (user,
/// category, term, the caller's sessions) still apply — so no key is needed, and cursors stay
/// valid across restarts and across every TIL process on the database.
enum Cursor {
    /// Longer than any cursor this server makes (a `short` is at most 64 bytes).
    static let maxLength = 512
    private static let checkLength = 8
    private static let domain = Array("TIL list cursor v1\n".utf8)

    private struct Payload: Codable {
        var list: PagedList
        var seq: Int64
        var short: String?
    }

    static func encode(_ position: ListPosition, of list: PagedList) -> String {
        let payload = Payload(list: list, seq: position.seq, short: position.short)
        // Encoding three plain fields cannot fail.
        let json = (try? JSONEncoder().encode(payload)).map(Array.init) ?? []
        return Base64URL.encode(json + check(json))
    }

    /// The position `text` holds, or a 400 that says what is wrong with it.
    static func decode(_ text: String, of list: PagedList) throws -> ListPosition {
        guard text.utf8.count <= maxLength, let bytes = Base64URL.decode(text), bytes.count > checkLength else {
            throw invalid("it is not one this server made")
        }
        let json = Array(bytes.dropLast(checkLength))
        guard Array(bytes.suffix(checkLength)) == check(json),
              let payload = try? JSONDecoder().decode(Payload.self, from: Data(json))
        else { throw invalid("it was altered or cut short") }
        guard payload.list == list else { throw invalid("it belongs to another list") }
        guard (payload.short != nil) == list.sortsByShort, payload.seq > 0 else { throw invalid("it does not fit this list") }
        return ListPosition(seq: payload.seq, short: payload.short)
    }

    private static func check(_ json: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(domain + json).prefix(checkLength))
    }

    private static func invalid(_ detail: String) -> Abort {
        Abort(.badRequest, reason: "Invalid cursor: \(detail). Use the cursor of a Link: rel=\"next\" header, unchanged.")
    }
}
