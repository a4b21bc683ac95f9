import App
import ArgumentParser

/// `til-server keys`: the OpenID Connect signing keys in the database. Rotating adds a key that
/// every process and relying party learns before it signs; pruning removes retired keys once
/// every token they signed has expired.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rotate, list or prune the OpenID Connect signing keys.",
        subcommands: [KeysRotate.self, KeysList.self, KeysPrune.self])
}
