import Postgres

/// Keyset pagination in SQL: a page starts after the previous page's last sort key (never an
/// OFFSET, which reads and throws away every row before the page) and fetches one row more
/// than it shows. The three forms of a list — whole, first page, later page — are different
/// statement texts, so each is prepared and planned on its own (a later page an index range).
extension PostgresQuery.StringInterpolation {
    /// `seq > $n` — or `(short, seq) > ($n, $m)` for the list sorted by `short` — after a
    /// cursor; `true` otherwise. `seq` and `short` are the columns' names in the query.
    mutating func appendInterpolation(rowsAfter page: PageRequest?, seq: String, short: String? = nil) {
        guard let after = page?.after else { return appendLiteral("true") }
        guard case .created(let afterSeq, let afterShort) = after else {
            return appendLiteral("false")  // a session's position: `Cursor.decode` never lets one reach another list
        }
        if let short, let afterShort {
            appendLiteral("(\(short), \(seq)) > (")
            appendInterpolation(afterShort)
            appendLiteral(", ")
            appendInterpolation(afterSeq)
            appendLiteral(")")
        } else {
            appendLiteral("\(seq) > ")
            appendInterpolation(afterSeq)
        }
    }

    /// `(created_at, id)` after a sessions cursor's position (in whole microseconds, see
    /// `ListPosition.sessionCreatedMicros`); `true` otherwise.
    mutating func appendInterpolation(sessionsAfter page: PageRequest?) {
        guard let after = page?.after else { return appendLiteral("true") }
        guard case .session(let createdAt, let id) = after else {
            return appendLiteral("false")  // another list's position: `Cursor.decode` never lets one reach the sessions
        }
        appendLiteral("(\(ListPosition.sessionCreatedMicros), id) > (")
        appendInterpolation(createdAt)
        appendLiteral(", ")
        appendInterpolation(id)
        appendLiteral(")")
    }

    /// ` LIMIT $n` of one row more than the page shows; nothing for the whole list.
    mutating func appendInterpolation(limitOf page: PageRequest?) {
        guard let page else { return }
        appendLiteral(" LIMIT ")
        appendInterpolation(page.limit + 1)
    }
}
