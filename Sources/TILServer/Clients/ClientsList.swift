import App
import ArgumentParser
import Terminal

struct ClientsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Every OAuth client: id, name, method, grants, trusted.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let clients = try await common.withTIL(seedsAdmin: false) { til in try await til.clientAdministration.list() }
        let rows = clients.map { [$0.id, $0.name, $0.authMethod, $0.grantTypes.joined(separator: ","), $0.trusted ? "yes" : "no"] }
        print(Table(headers: ["CLIENT-ID", "NAME", "AUTH-METHOD", "GRANTS", "TRUSTED"], rows: rows).text, terminator: "")
    }
}

struct ClientsShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One OAuth client's registered metadata.")

    @OptionGroup var client: ClientArguments

    func run() async throws {
        let found = try await client.common.withTIL(seedsAdmin: false) { til in try await til.clientAdministration.show(client.clientID) }
        print(found.lines.joined(separator: "\n"))
    }
}

struct ClientsRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove an OAuth client with its codes, grants and tokens.")

    @OptionGroup var client: ClientArguments

    func run() async throws {
        try await client.common.withTIL(seedsAdmin: false) { til in try await til.clientAdministration.remove(client.clientID) }
        print("Client \(client.clientID) removed; its tokens no longer work.")
    }
}
