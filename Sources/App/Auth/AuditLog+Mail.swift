import Foundation
import Logging

extension AuditLog {
    /// A message's fate, from the sender loop rather than a request: its id (the Message-ID's
    /// left part), kind and recipient, the attempts it took, and for a failure the relay's
    /// answer. Never its subject or body: a body may hold a token.
    func record(_ event: Event, mail id: UUID, kind: String, recipient: String, attempts: Int, detail: String? = nil) {
        var metadata: Logger.Metadata = [
            "event": .string(event.rawValue),
            "mail-id": .string(id.uuidString.lowercased()),
            "kind": .string(kind),
            "to": .string(recipient),
            "attempts": .stringConvertible(attempts),
        ]
        if let detail { metadata["error"] = .string(detail) }
        logger.notice("audit \(event.rawValue)", metadata: metadata)
    }
}
