import Foundation
import TILWire
import Web

/// The account page's list of the user's live sessions: each one's device (from its user
/// agent) or the application holding it, when it began and was last used, this browser's own
/// marked, and an "End" button per session. Ending this browser's session signs it out.
struct SessionsSection: Sendable {
    var sessions: [SessionInfo]
    var csrfToken: String

    var html: HTML {
        // This browser's own first: the one a person looks for.
        AccountSection.render(
            id: "sessions", heading: "Sessions",
            lead: "<p class=\"hint\">Everywhere your account is signed in. End any you do not recognise.</p>\n",
            items: (sessions.filter(\.current) + sessions.filter { !$0.current }).map(item), empty: "No sessions.")
    }

    private func item(_ session: SessionInfo) -> HTML {
        let id = "session-\(session.id.uuidString.lowercased())"
        let current: HTML = session.current ? " <span class=\"badge\">This browser</span>" : .empty
        let agent: HTML = session.userAgent.map { "<p class=\"agent\">\($0)</p>" } ?? .empty
        let method: HTML = SignInMethod.words(session.amr).map { " with \($0)" } ?? .empty
        // A re-authentication since (RFC 9470 step-up) moved its authentication time on.
        let again: HTML = session.authTime.flatMap { $0.timeIntervalSince(session.createdAt) > 60 ? $0 : nil }
            .map { " · signed in again \(PageDate.html($0))" } ?? .empty
        let button = ActionButton(
            action: "/account/sessions/\(session.id.uuidString.lowercased())/end", label: session.current ? "Sign out" : "End",
            csrfToken: csrfToken, describedBy: id)
        return """
            <li class="item">
            <div class="item-text">
            <p class="item-title" id="\(id)">\(Self.title(of: session))\(current)</p>
            <p class="meta">Signed in \(PageDate.html(session.createdAt))\(method)\(again) · last used \(PageDate.html(session.lastUsedAt))</p>
            \(agent)</div>
            \(button.html)
            </li>
            """
    }

    /// What a person recognises a session by: the application holding it, else the device.
    static func title(of session: SessionInfo) -> String {
        switch session.kind {
        case "oauth": return "\(session.clientName ?? "An application") (application)"
        case "login": return "\(DeviceName.describe(session.userAgent)) (API login)"
        default: return DeviceName.describe(session.userAgent)
        }
    }
}
