import App
import ArgumentParser
import Foundation

struct UsersList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Every account: username, name, live sessions, recent failed logins, id.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let accounts = try await common.withTIL(seedsAdmin: false) { til in try await til.administration.list() }
        let rows = [["USERNAME", "NAME", "SESSIONS", "FAILED-LOGINS", "ID"]] + accounts.map {
            [$0.username, $0.name, "\($0.liveSessions)", "\($0.recentFailures)", $0.id.uuidString.lowercased()]
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            print(cells.joined(separator: "  "))
        }
    }
}
