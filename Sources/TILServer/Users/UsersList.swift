import App
import ArgumentParser
import Foundation
import Terminal

struct UsersList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Every account: username, name, live sessions, recent failed logins, id.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let accounts = try await common.withTIL(seedsAdmin: false) { til in try await til.administration.list() }
        let rows = accounts.map { [$0.username, $0.name, "\($0.liveSessions)", "\($0.recentFailures)", $0.id.uuidString.lowercased()] }
        print(Table(headers: ["USERNAME", "NAME", "SESSIONS", "FAILED-LOGINS", "ID"], rows: rows).text, terminator: "")
    }
}
