import ArgumentParser
import TILClient

/// `--limit` and `--all` for every list: by default the first page of 100 rows.
struct ListOptions: ParsableArguments {
    @Option(help: "Rows to show (a page size with --all), 1–1000; default 100.")
    var limit: Int?

    @Flag(help: "Every row, following the server's pages to the end.")
    var all = false

    func validate() throws {
        if let limit, !PageSequence<Acronym>.limits.contains(limit) {
            throw ValidationError("--limit must be from 1 to 1000.")
        }
    }

    /// Fetches what was asked for from `list` (a list route, given a page size) and prints it,
    /// noting on stderr when more rows remain.
    func show<Row: TableRow & Decodable & Sendable>(_ list: (Int) -> PageSequence<Row>, with output: Output) async throws {
        if all {
            try output.list(try await list(limit ?? 1000).collect())
            return
        }
        let wanted = limit ?? 100
        let page = try await list(wanted).firstPage()
        try output.list(Array(page.items.prefix(wanted)))
        if page.next != nil || page.items.count > wanted {
            output.note("(the first \(wanted) \(wanted == 1 ? "row" : "rows"); --all for every row)")
        }
    }
}
