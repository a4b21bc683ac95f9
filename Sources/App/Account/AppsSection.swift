import Foundation
import Web

/// The account page's list of the applications the user let in (their OAuth grants): the
/// client's name, what it may do in words, since when, and a "Revoke" button that withdraws
/// the consent and ends the client's sessions for the user.
struct AppsSection: Sendable {
    var grants: [GrantRepository.Grant]
    /// A scope's words, as the consent page showed them.
    var words: @Sendable (String) -> String
    var csrfToken: String

    var html: HTML {
        AccountSection.render(
            id: "apps", heading: "Applications", items: grants.enumerated().map { item($0.element, index: $0.offset) },
            empty: "No applications have access to your account.")
    }

    private func item(_ grant: GrantRepository.Grant, index: Int) -> HTML {
        let id = "app-\(index)"
        let scopes = grant.scopes.map { scope -> HTML in "<li>\(words(scope)) <code>\(scope)</code></li>" }
        let button = ActionButton(
            action: "/account/apps/\(Self.pathSegment(grant.clientID))/revoke", label: "Revoke", csrfToken: csrfToken,
            describedBy: id, style: .danger)
        return """
            <li class="item">
            <div class="item-text">
            <p class="item-title" id="\(id)">\(grant.clientName)</p>
            <p class="meta">Allowed \(PageDate.html(grant.createdAt))</p>
            <ul class="scopes">\(HTML.joined(scopes))</ul>
            </div>
            \(button.html)
            </li>
            """
    }

    /// `clientID` as one path segment: every byte but RFC 3986's unreserved ones escaped, so a
    /// client id holding `/` or `?` stays one segment (the router decodes it back).
    static func pathSegment(_ clientID: String) -> String {
        clientID.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
