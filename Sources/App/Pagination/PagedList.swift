/// Every list route that pages, by name: a cursor records the list it was made for, so it
/// cannot continue another one.
///
/// Every list keeps the order it has always had (the book's full arrays are unchanged): rows
/// in creation order (`seq`, a unique identity column — UUIDs do not sort by time), except
/// `GET /api/acronyms/sorted`, ordered by `short` and then creation order. `seq` being unique,
/// it breaks every tie, so a keyset position is exact.
enum PagedList: String, Codable, Sendable {
    case users
    case userAcronyms = "user-acronyms"
    case acronyms
    case acronymSearch = "acronym-search"
    case acronymsSorted = "acronyms-sorted"
    case acronymCategories = "acronym-categories"
    case categories
    case categoryAcronyms = "category-acronyms"
    case sessions

    /// True when rows are ordered by `short` before creation order.
    var sortsByShort: Bool { self == .acronymsSorted }
}
