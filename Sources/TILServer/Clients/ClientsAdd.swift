import App
import ArgumentParser

struct ClientsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Register an OAuth client; a confidential one's secret is printed once.")

    @OptionGroup var common: CommonOptions

    @Option(help: "client_name, shown on the consent page.")
    var name: String?

    @Option(name: .customLong("redirect-uri"), help: "A redirect URI (repeat for several).")
    var redirectURIs: [String] = []

    @Option(name: .customLong("post-logout-redirect-uri"), help: "A post-logout redirect URI (repeat for several).")
    var postLogoutRedirectURIs: [String] = []

    @Option(name: .customLong("auth-method"), help: "none, client_secret_basic (default) or client_secret_post.")
    var authMethod: String?

    @Option(name: .customLong("grant-type"), help: "authorization_code (default), refresh_token, client_credentials (repeat).")
    var grantTypes: [String] = []

    @Option(help: "The most the client may be granted, space-separated.")
    var scope: String?

    @Flag(help: "A first-party app: it skips the consent page and may hold account.")
    var trusted = false

    @Option(name: .customLong("id-token-alg"), help: "How its OpenID Connect ID tokens are signed: RS256 (default) or ES256.")
    var idTokenAlgorithm: String?

    func run() async throws {
        var metadata = ClientAdministration.Metadata()
        metadata.name = name
        metadata.redirectURIs = redirectURIs
        metadata.postLogoutRedirectURIs = postLogoutRedirectURIs
        metadata.authMethod = authMethod
        metadata.grantTypes = grantTypes
        metadata.scope = scope
        metadata.trusted = trusted
        metadata.idTokenAlgorithm = idTokenAlgorithm
        let client = try await common.withTIL(seedsAdmin: false) { til in try await til.clientAdministration.add(metadata) }
        print(client.lines.joined(separator: "\n"))
    }
}
