import Foundation
import Glibc
import Logging
import Mail
import Web

/// Development and testing without `SMTP_URL`: each message becomes `<directory>/<Message-ID>.eml`
/// (the bytes SMTP would carry; any mail reader opens it) and a log line. In development the
/// line carries the text part too, so a link is one glance away; elsewhere only the subject,
/// the recipient and the path (a body may hold a token).
///
/// The directory is made owner-only (0700) and each file 0600: the links in them work.
struct MailDirectory: MailTransport {
    let directory: String
    let logger: Logger
    let environment: Environment

    func deliver(_ message: MailMessage, kind: String) async throws(DeliveryFailure) -> String? {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(message.messageID + ".eml").path
        do {
            let bytes = try message.rendered()
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Written whole under another name, then renamed: a reader never sees half a message.
            let partial = path + ".partial"
            guard FileManager.default.createFile(atPath: partial, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            guard rename(partial, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch let error as MailHeaderError {
            throw DeliveryFailure(scope: .message, permanent: true, detail: error.description)
        } catch {
            throw DeliveryFailure(scope: .server, detail: "cannot write \(path): \(error.localizedDescription)")
        }
        var metadata: Logger.Metadata = [
            "kind": .string(kind), "to": .string(message.to.address), "subject": .string(message.subject), "path": .string(path),
        ]
        if environment == .development { metadata["text"] = .string(message.text) }
        logger.info("mail written to \(path)", metadata: metadata)
        return path
    }

    func abort() {}
}
