public import Foundation

/// One page of a list: its rows, and where the next page is (nil on the last).
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    /// The `rel="next"` link the server sent; nil when no rows remain.
    public var next: URL?
}

/// Every page of a list route, fetched one at a time as the loop asks for it:
///
/// ```swift
/// for try await page in til.acronyms.list(limit: 100) { print(page.items.count) }
/// let everything = try await til.acronyms.list(limit: 500).collect()
/// ```
///
/// The first request carries `?limit=` (1–1000); each next one follows the server's
/// `Link: <…>; rel="next"` (RFC 8288), cursor and all, until it sends none. Without a limit
/// the server answers its whole list as one page. Links are followed only on the same server.
public struct PageSequence<Item: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Page<Item>

    let client: APIClient
    let first: APIRequest
    let limit: Int?

    init(client: APIClient, _ request: APIRequest, limit: Int?) {
        var request = request
        if let limit { request.query.append((name: "limit", value: String(limit))) }
        self.client = client
        self.first = request
        self.limit = limit
    }

    /// Page sizes the server accepts.
    public static var limits: ClosedRange<Int> { 1...1000 }

    public func makeAsyncIterator() -> Iterator {
        var iterator = Iterator(client: client, next: first)
        if let limit, !Self.limits.contains(limit) {
            iterator.problem = .invalidArgument("A page holds \(Self.limits.lowerBound) to \(Self.limits.upperBound) rows, not \(limit).")
        }
        return iterator
    }

    public struct Iterator: AsyncIteratorProtocol {
        let client: APIClient
        var next: APIRequest?
        var problem: TILError?

        public mutating func next() async throws -> Page<Item>? {
            if let problem { throw problem }
            guard let request = next else { return nil }
            next = nil
            let response = try await client.send(request)
            let items = try APIClient.decode([Item].self, from: response)
            let link = response.header("Link").flatMap { LinkHeader(parsing: $0, relativeTo: response.url).target("next") }
            if let link {
                guard link != response.url else { throw TILError.invalidResponse("The next page links to itself: \(link).") }
                var following = request
                following.url = link
                following.query = []
                next = following
            }
            return Page(items: items, next: link)
        }
    }

    /// The first page alone.
    public func firstPage() async throws -> Page<Item> {
        var iterator = makeAsyncIterator()
        return try await iterator.next() ?? Page(items: [], next: nil)
    }

    /// The rows of every page, in order.
    public func collect() async throws -> [Item] {
        var items: [Item] = []
        for try await page in self { items += page.items }
        return items
    }
}
