import ArgumentParser
import TILClient

// What a `til` command is once the options every command takes are set aside: its own
// arguments and one call of the API. A route says those two things; a generic command runs it,
// adding `--server` and `--json` (and `--limit`/`--all` for lists) and printing the result. So
// `til acronyms show ID` is written as its argument and `client.acronyms.show(id)`, nothing else.
//
// Four kinds, by what they print: rows in pages (`ListRoute`), rows all at once (`RowsRoute`),
// one row (`ItemRoute`), or a confirmation for people (`ActionRoute`). A route is named after its type, as a command would be (`Show` →
// `show`), unless its configuration names it.

/// A route that manages the account (sessions, second factors, tokens): it needs a login, and
/// is refused before any request when `TIL_TOKEN` holds a personal access token.
protocol NeedsLogin {}

/// A command that prints the rows of a list route, paged as `ListOptions` says.
protocol ListRoute: ParsableArguments {
    associatedtype Row: TableRow & Decodable & Sendable
    static var configuration: CommandConfiguration { get }
    func pages(on client: APIClient, limit: Int) -> PageSequence<Row>
}

/// A command that prints the rows of a route that answers them all at once (no pages).
protocol RowsRoute: ParsableArguments {
    associatedtype Row: TableRow
    static var configuration: CommandConfiguration { get }
    func rows(from client: APIClient) async throws -> [Row]
}

/// A command that prints one row: a one-row table, or one JSON object.
protocol ItemRoute: ParsableArguments {
    associatedtype Row: TableRow
    static var configuration: CommandConfiguration { get }
    func item(from client: APIClient) async throws -> Row
}

/// A command that changes something and says so (nothing in JSON mode: the exit code says it).
protocol ActionRoute: ParsableArguments {
    static var configuration: CommandConfiguration { get }
    /// Does it; returns the line a person reads.
    func perform(on client: APIClient) async throws -> String
}

struct ListCommand<Route: ListRoute>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { Route.configuration.named(after: Route.self) }

    @OptionGroup var options: GlobalOptions
    @OptionGroup var listing: ListOptions
    @OptionGroup var route: Route

    func run() async throws {
        let context = try await options.context(needingLogin: Route.self is any NeedsLogin.Type)
        try await listing.show({ route.pages(on: context.client, limit: $0) }, with: context.output)
    }
}

struct RowsCommand<Route: RowsRoute>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { Route.configuration.named(after: Route.self) }

    @OptionGroup var options: GlobalOptions
    @OptionGroup var route: Route

    func run() async throws {
        let context = try await options.context(needingLogin: Route.self is any NeedsLogin.Type)
        try context.output.list(try await route.rows(from: context.client))
    }
}

struct ItemCommand<Route: ItemRoute>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { Route.configuration.named(after: Route.self) }

    @OptionGroup var options: GlobalOptions
    @OptionGroup var route: Route

    func run() async throws {
        let context = try await options.context(needingLogin: Route.self is any NeedsLogin.Type)
        try context.output.one(try await route.item(from: context.client))
    }
}

struct ActionCommand<Route: ActionRoute>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { Route.configuration.named(after: Route.self) }

    @OptionGroup var options: GlobalOptions
    @OptionGroup var route: Route

    func run() async throws {
        let context = try await options.context(needingLogin: Route.self is any NeedsLogin.Type)
        context.output.done(try await route.perform(on: context.client))
    }
}

extension CommandConfiguration {
    /// This configuration, named `type` in lower case unless it names itself.
    fileprivate func named(after type: Any.Type) -> CommandConfiguration {
        var named = self
        named.commandName = commandName ?? String(describing: type).lowercased()
        return named
    }
}
