import Crypt
import Foundation
import Web

/// The opaque `?cursor=` of a paged list: base64url of a small JSON payload (which list, the
/// last row's sort key) followed by an 8-byte check over it.
///
/// The check is a plain SHA-256 prefix, not a secret MAC: it catches a cursor that was cut or
/// edited by mistake, and one from another list, with a 400 instead of a wrong page. Anyone can
/// compute it, so the payload is the client's to choose, and is treated as such: a NUL
/// anywhere in it is refused (libpq would cut a parameter there), and a forged cursor can only
/// move where a list starts — the route's own filters (user, category, term, the caller's
/// sessions) still apply. Nothing in a cursor is a secret or global: public lists carry the
/// public row's `seq`, the sessions list the caller's own session's time and id. Cursors stay
/// valid across restarts and every TIL process on the database. (A keyed MAC can come with a
/// server key.)
enum Cursor {
    /// Longer than any cursor this server makes (a `short` is at most 64 bytes).
    static let maxLength = 512
    private static let checkLength = 8
    private static let domain = Array("TIL list cursor v1\n".utf8)

    /// `{"list","seq"}` (and `"short"` for the sorted list), or `{"list","at","id"}` for sessions.
    private struct Payload: Codable {
        var list: PagedList
        var seq: Int64?
        var short: String?
        var at: Int64?
        var id: UUID?
    }

    static func encode(_ position: ListPosition, of list: PagedList) -> String {
        let payload = switch position {
        case .created(let seq, let short): Payload(list: list, seq: seq, short: short)
        case .session(let createdAt, let id): Payload(list: list, at: createdAt, id: id)
        }
        // Encoding a few plain fields cannot fail.
        let json = (try? JSONEncoder().encode(payload)).map(Array.init) ?? []
        return Base64URL.encode(json + check(json))
    }

    /// The position `text` holds, or a 400 that says what is wrong with it.
    static func decode(_ text: String, of list: PagedList) throws -> ListPosition {
        guard text.utf8.count <= maxLength, let bytes = Base64URL.decode(text), bytes.count > checkLength else {
            throw invalid("it is not one this server made")
        }
        let json = Array(bytes.dropLast(checkLength))
        guard Array(bytes.suffix(checkLength)) == check(json) else { throw invalid("it was altered or cut short") }
        guard !json.contains(0) else { throw invalid("it must not contain NUL") }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(json)) else {
            throw invalid("it was altered or cut short")
        }
        guard payload.short?.utf8.contains(0) != true else { throw invalid("it must not contain NUL") }
        guard payload.list == list else { throw invalid("it belongs to another list") }
        guard let position = position(in: payload) else { throw invalid("it does not fit this list") }
        return position
    }

    /// The position `payload` holds, nil unless it has exactly the fields of its list's kind.
    private static func position(in payload: Payload) -> ListPosition? {
        switch (payload.seq, payload.short, payload.at, payload.id) {
        case (nil, nil, let at?, let id?) where payload.list == .sessions && at > 0:
            .session(createdAt: at, id: id)
        case (let seq?, let short, nil, nil) where payload.list != .sessions && seq > 0 && (short != nil) == payload.list.sortsByShort:
            .created(seq: seq, short: short)
        default:
            nil
        }
    }

    private static func check(_ json: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(domain + json).prefix(checkLength))
    }

    private static func invalid(_ detail: String) -> Abort {
        Abort(.badRequest, reason: "Invalid cursor: \(detail). Use the cursor of a Link: rel=\"next\" header, unchanged.")
    }
}
