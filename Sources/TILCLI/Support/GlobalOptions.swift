import ArgumentParser
import Foundation
import TILClient

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The TIL server (default: $TIL_SERVER, else the one logged in to, else http://127.0.0.1:8080).")
    var server: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    /// The client for this run: the stored tokens of the chosen server, or `TIL_TOKEN`. A command
    /// `needingLogin` (managing the account) is refused before any request when `TIL_TOKEN`
    /// holds a personal access token: the server would refuse it anyway.
    func context(
        environment: [String: String] = ProcessInfo.processInfo.environment, needingLogin: Bool = false
    ) async throws -> Context {
        let store = FileCredentialStore(environment: environment)
        let url = try await serverURL(store: store, environment: environment)
        var configuration = APIClient.Configuration()
        configuration.userAgent = "til/1.0"
        configuration.reauthenticate = StepUpPrompt.answer
        let token = Self.nonEmpty(environment["TIL_TOKEN"])
        let client = if let token {
            APIClient(server: url, bearerToken: token, configuration: configuration)
        } else {
            APIClient(server: url, store: store, configuration: configuration)
        }
        let personal = token.map(PersonalAccessToken.isShaped) ?? false
        if needingLogin, personal { throw TILError.needsLogin }
        return Context(client: client, output: Output(json: json), usesEnvironmentToken: token != nil, usesPersonalAccessToken: personal)
    }

    /// `--server`, else `TIL_SERVER`, else the server logged in to: the credentials file is
    /// read only when neither names one.
    private func serverURL(store: FileCredentialStore, environment: [String: String]) async throws -> URL {
        var named = server ?? Self.nonEmpty(environment["TIL_SERVER"])
        if named == nil { named = try? await store.load().server }
        let text = named ?? "http://127.0.0.1:8080"
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw UsageError("'\(text)' is not an http(s) URL.")
        }
        return url
    }

    /// An environment variable set to something: an empty one counts as unset.
    private static func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// What a command works with: the client and how to print.
struct Context {
    let client: APIClient
    let output: Output
    /// True when `TIL_TOKEN` supplies the bearer token instead of the store.
    let usesEnvironmentToken: Bool
    /// True when that token is a personal access token (`til_pat_…`).
    let usesPersonalAccessToken: Bool

    /// What `TIL_TOKEN` holds, in words.
    var tokenKind: String { usesPersonalAccessToken ? "a personal access token" : "a bearer token" }
}
