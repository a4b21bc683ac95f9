import Web

/// What a list request asked for: `?limit=` rows (1–1000) after `?cursor=`.
///
/// Neither parameter: the whole list, as the book answers it. `limit` alone: the first page.
/// `cursor` alone: the next `defaultLimit` rows. A limit that is not a whole number in range,
/// or a cursor this server did not make for this list, is a 400 naming the parameter.
struct PageRequest: Sendable {
    static let limits = 1...1000
    /// The page size when a cursor comes without a limit.
    static let defaultLimit = 100

    let list: PagedList
    let limit: Int
    /// Where the previous page ended; nil for the first page.
    let after: ListPosition?

    /// The page `request` asks for in `list`, or nil when it asks for the whole list.
    static func from(_ request: Request, for list: PagedList) throws -> PageRequest? {
        let query = request.query
        let limitText = query["limit"], cursorText = query["cursor"]
        guard limitText != nil || cursorText != nil else { return nil }
        return PageRequest(
            list: list,
            limit: try limitText.map(parseLimit) ?? defaultLimit,
            after: try cursorText.map { try Cursor.decode($0, of: list) })
    }

    /// Digits only (no sign, no spaces, no exponent), in `limits`.
    private static func parseLimit(_ text: String) throws -> Int {
        guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int(text), limits.contains(value)
        else {
            throw Abort(.badRequest, reason: "Invalid limit: must be a whole number from \(limits.lowerBound) to \(limits.upperBound).")
        }
        return value
    }
}
