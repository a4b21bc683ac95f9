import App
import ArgumentParser
import Foundation
import JOSE

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
