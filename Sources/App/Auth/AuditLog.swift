import Foundation
import Logging
import Web

/// One structured line per authentication event, at `notice`, for the people who must answer
/// "who logged in from where, and when was that token revoked". Never a password, a token or
/// a digest: only ids, the client address, the user agent, the request id and, for failed or
/// refused attempts, the username as PostgreSQL folds it (unknown names included). The user
/// agent and the username are the client's own text: `til-server`'s log handler
/// (`LogfmtLogHandler`) writes them, like every value, quoted and escaped, so they cannot
/// forge a field or a line.
struct AuditLog: Sendable {
    enum Event: String, Sendable {
        case loginSucceeded = "login.succeeded"
        case loginFailed = "login.failed"
        case loginThrottled = "login.throttled"
        case tokenRefreshed = "token.refreshed"
        case refreshReuseDetected = "refresh.reuse-detected"
        case logout = "logout"
        case logoutAll = "logout-all"
        case sessionEnded = "session.ended"
        case passwordChanged = "password.changed"
        /// The current password given to a password change was wrong.
        case passwordChangeFailed = "password.change-failed"
        /// A password change refused by the login throttle, its current password unchecked.
        case passwordChangeThrottled = "password.change-throttled"
        /// An operator set the password (`til-server users set-password`).
        case passwordSet = "password.set"
        /// An operator cleared the login throttle (`til-server users unlock`).
        case loginUnlocked = "login.unlocked"
        /// An operator made a user an administrator (`til-server users admin --grant`).
        case adminGranted = "admin.granted"
        /// An operator took the administrator role away (`til-server users admin --revoke`).
        case adminRevoked = "admin.revoked"
        /// A user withdrew an OAuth client's grant, ending its tokens for them.
        case grantWithdrawn = "grant.withdrawn"
    }

    let logger: Logger

    func record(_ event: Event, _ request: Request, userID: UUID? = nil, sessionID: UUID? = nil, username: String? = nil) {
        var metadata: Logger.Metadata = [
            "event": .string(event.rawValue),
            "address": .string(request.clientAddress),
            "request-id": .string(request.id),
        ]
        if let userID { metadata["user-id"] = .string(userID.uuidString) }
        if let sessionID { metadata["session-id"] = .string(sessionID.uuidString) }
        if let username { metadata["username"] = .string(username) }
        if let agent = request.headers["User-Agent"] { metadata["user-agent"] = .string(String(agent.prefix(256))) }
        logger.notice("audit \(event.rawValue)", metadata: metadata)
    }
}
