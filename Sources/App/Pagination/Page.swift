import Postgres
import Web

/// The answer of a list route: always the plain JSON array of its rows (written by the
/// models' `writeJSON`), plus `Link: <…>; rel="next"` while more rows follow a page.
struct Page<Item: Content>: ResponseEncodable {
    var items: [Item]
    /// The page asked for; nil for the whole list.
    var request: PageRequest?
    /// Where the next page starts; nil when this is the last page (or the whole list).
    var next: ListPosition?

    /// The page `rows` make: a paged query fetches one row more than `request.limit`, so that a
    /// further row tells that a next page exists without a second query. Every paged query
    /// selects the columns of its list's position (`ListPosition.init(lastRow:of:)`).
    init(rows: [PostgresRow], request: PageRequest?, item: (PostgresRow) throws -> Item) throws {
        self.request = request
        guard let request, rows.count > request.limit else {
            items = try rows.map(item)
            return
        }
        let shown = rows.prefix(request.limit)
        items = try shown.map(item)
        let last = shown[shown.index(before: shown.endIndex)]
        next = try ListPosition(lastRow: last, of: request.list)
    }

    func encodeResponse(for request: Request) throws -> Response {
        var response = try items.encodeResponse(for: request)
        if let page = self.request, let next {
            let cursor = Cursor.encode(next, of: page.list)
            response.headers.add(name: "Link", value: NextLink.header(for: request, limit: page.limit, cursor: cursor))
        }
        return response
    }
}
