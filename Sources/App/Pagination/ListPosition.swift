import Foundation
import Postgres

/// Where a page ended: the sort key of its last row, which the next page starts after.
enum ListPosition: Equatable, Sendable {
    /// After the row with this `seq` (creation order) and, in the list sorted by `short`, this
    /// `short`. Every list but the sessions: their rows are public, and so is how many there are.
    case created(seq: Int64, short: String?)
    /// After one of the caller's own sessions: its creation time (in microseconds since 1970)
    /// and its id, both shown in the list already. The sessions' `seq` would tell any user how
    /// many logins everyone has made.
    case session(createdAt: Int64, id: UUID)

    /// `created_at` in whole microseconds since 1970, exactly (PostgreSQL keeps microseconds).
    static let sessionCreatedMicros = "(extract(epoch FROM created_at) * 1000000)::bigint"

    /// The position of `row`, the last row of a page of `list`. A paged query selects the
    /// columns its list's position needs: `seq AS page_seq` (and `short`, for the list sorted by
    /// it), or for sessions `id` and `sessionCreatedMicros AS page_created`.
    init(lastRow row: PostgresRow, of list: PagedList) throws {
        if list == .sessions {
            self = .session(
                createdAt: try row.decode(column: "page_created", as: Int64.self), id: try row.decode(column: "id", as: UUID.self))
        } else {
            self = .created(
                seq: try row.decode(column: "page_seq", as: Int64.self),
                short: list.sortsByShort ? try row.decode(column: "short", as: String.self) : nil)
        }
    }
}
