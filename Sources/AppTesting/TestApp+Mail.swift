import App
public import Foundation
public import MailTesting

extension TestApp {
    /// Delivers what the app queued, one pass (test apps run no sender loop), and returns the
    /// messages it wrote to its `.eml` directory in this pass, parsed, oldest first; the files
    /// are removed. With `SMTP_URL` set (a `MailSink`), read the sink instead: this returns [].
    ///
    /// ```swift
    /// let mail = try await app.deliveredMail()
    /// XCTAssertEqual(mail.first?.header("To"), "ada@example.com")
    /// let link = mail.first?.text  // the text part, decoded
    /// ```
    public func deliveredMail(asOf: Date? = nil) async throws -> [ParsedMail] {
        guard case .files(directory: let directory) = til.configuration.mail.delivery else {
            _ = try await til.deliverQueuedMail(asOf: asOf)
            return []
        }
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        _ = try await til.deliverQueuedMail(asOf: asOf)
        let written = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".eml") && !before.contains($0) }
            .map { URL(fileURLWithPath: directory).appendingPathComponent($0) }
        var messages: [(date: Date, mail: ParsedMail)] = []
        for file in written {
            let bytes = try Data(contentsOf: file)
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? Date()
            messages.append((modified, ParsedMail(Array(bytes))))
            try? FileManager.default.removeItem(at: file)
        }
        return messages.sorted { $0.date < $1.date }.map(\.mail)
    }
}
