import App
import ArgumentParser

/// `til-server clients`: an operator's commands on OAuth clients, straight on the database, by
/// the rules of `POST /oauth/register`; `--trusted` marks a first-party app (no consent page).
struct Clients: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register, list, show or remove OAuth clients.",
        subcommands: [ClientsAdd.self, ClientsList.self, ClientsShow.self, ClientsRemove.self])
}

/// What a command on one client takes: the common options and the client id.
struct ClientArguments: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @Argument(help: "The client's client_id.")
    var clientID: String
}

extension ClientAdministration.Client {
    /// `clients show` and `clients add`: one `field: value` line each.
    var lines: [String] {
        var lines = [
            "client_id: \(id)", "client_name: \(name)", "token_endpoint_auth_method: \(authMethod)",
            "redirect_uris: \(redirectURIs.joined(separator: " "))", "post_logout_redirect_uris: \(postLogoutRedirectURIs.joined(separator: " "))",
            "grant_types: \(grantTypes.joined(separator: " "))", "scope: \(scope)", "trusted: \(trusted)",
            "id_token_signed_response_alg: \(idTokenAlgorithm)",
        ]
        if let secret { lines.append("client_secret: \(secret)   (shown once: store it now)") }
        return lines
    }
}
