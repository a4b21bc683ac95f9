import App
import ArgumentParser
import Foundation
import JOSE
import Terminal

/// `til-server keys`: the OpenID Connect signing keys in the database. Rotating adds a key that
/// every process and relying party learns before it signs; pruning removes retired keys once
/// every token they signed has expired.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rotate, list or prune the OpenID Connect signing keys.",
        subcommands: [KeysRotate.self, KeysList.self, KeysPrune.self])
}

struct KeysRotate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Add a new signing key: published at once, signing after twice JWKS_MAX_AGE (or at once with --activate).")

    @OptionGroup var common: CommonOptions

    @Option(help: "RS256, ES256 or all (default: all).")
    var algorithm = "all"

    @Flag(help: "Sign with the new key at once: relying parties that cached the key set meet a kid they do not know yet.")
    var activate = false

    func validate() throws {
        guard algorithms != nil else { throw ValidationError("--algorithm must be RS256, ES256 or all, not '\(algorithm)'") }
    }

    /// The algorithms `--algorithm` names (in any case); nil for anything else.
    var algorithms: [JWSAlgorithm]? {
        algorithm.lowercased() == "all" ? JWSAlgorithm.allCases : JWSAlgorithm(rawValue: algorithm.uppercased()).map { [$0] }
    }

    func run() async throws {
        let added = try await common.withTIL(seedsAdmin: false, opensSecrets: true) { til in
            try await til.signingKeyAdministration.rotate(algorithms ?? [], activate: activate)
        }
        for key in added {
            let when = activate ? "signs from now on" : "signs from \(key.activatesAt.formatted(.iso8601))"
            print("Added \(key.algorithm.rawValue) key \(key.kid): published now, \(when).")
        }
    }
}

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
