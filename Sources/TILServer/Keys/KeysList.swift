import App
import ArgumentParser
import Foundation
import JOSE
import Terminal

struct KeysList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Every signing key: kid, algorithm, status, when it signs, retired and prunable.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let keys = try await common.withTIL(seedsAdmin: false) { til in try await til.signingKeyAdministration.list() }
        let time: (Date?) -> String = { $0?.formatted(.iso8601) ?? "-" }
        let rows = keys.map { [$0.kid, $0.algorithm.rawValue, $0.status, time($0.activatesAt), time($0.retiredAt), time($0.prunableAt)] }
        print(Table(headers: ["KID", "ALG", "STATUS", "SIGNS-FROM", "RETIRED", "PRUNABLE"], rows: rows).text, terminator: "")
    }
}

struct KeysPrune: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove the keys retired longer than TOKEN_TTL + JWKS_MAX_AGE (every token they signed has expired).")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let pruned = try await common.withTIL(seedsAdmin: false) { til in try await til.signingKeyAdministration.prune() }
        print(pruned.isEmpty ? "No key is retired long enough to prune." : pruned.map { "Pruned \($0)." }.joined(separator: "\n"))
    }
}
