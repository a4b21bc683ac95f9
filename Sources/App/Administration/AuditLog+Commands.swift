import Foundation
import Logging

extension AuditLog {
    /// An account change made by an operator's `til-server` command rather than a request:
    /// the same one-line shape, naming the command and the operating-system user who ran it.
    func record(_ event: Event, command: String, userID: UUID) {
        logger.notice("audit \(event.rawValue)", metadata: [
            "event": .string(event.rawValue),
            "user-id": .string(userID.uuidString),
            "command": .string(command),
            "uid": .stringConvertible(getuid()),
        ])
    }
}
