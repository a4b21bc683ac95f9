public import Foundation

/// One message as it goes out: who from and to, the subject, a plain-text and an HTML body,
/// and the identity that makes a second delivery of it recognisable (`messageID`, `date`).
///
/// `rendered()` gives the same bytes every time for the same value, so a retry sends exactly
/// what the first attempt sent.
public struct MailMessage: Sendable, Equatable {
    public var from: MailFrom
    public var to: MailAddress
    public var subject: String
    public var text: String
    public var html: String
    /// `left@right`, without angle brackets: the `Message-ID` header's content.
    public var messageID: String
    /// When the message was written (the `Date` header), not when an attempt went out.
    public var date: Date

    public init(from: MailFrom, to: MailAddress, subject: String, text: String, html: String, messageID: String, date: Date) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.messageID = messageID
        self.date = date
    }

    /// The RFC 5322 message with CRLF line ends: headers, then a multipart/alternative body
    /// holding the text part and the HTML part, both UTF-8 in quoted-printable. Throws when a
    /// header value would not stay one header (`MailHeaderError`).
    public func rendered() throws(MailHeaderError) -> [UInt8] {
        let identity = try MailAddress(messageID, header: "Message-ID").address
        let boundary = Self.boundary(for: identity)
        let headers = [
            "Date: " + Self.rfc5322Date(date),
            try from.headerField(),
            try HeaderText.addressField("To", to),
            try HeaderText.field("Subject", subject),
            "Message-ID: <\(identity)>",
            "MIME-Version: 1.0",
            // RFC 3834: no vacation responder or mailing list should answer it.
            "Auto-Submitted: auto-generated",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
        ]
        let body = [
            "--" + boundary,
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            QuotedPrintable.encode(text),
            "--" + boundary,
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            QuotedPrintable.encode(html),
            "--" + boundary + "--",
            "",
        ]
        return Array((headers + [""] + body).joined(separator: "\r\n").utf8)
    }

    /// A boundary no quoted-printable text can hold (`=_` is never a QP escape), derived from
    /// the message's identity so a retry renders the same bytes.
    static func boundary(for messageID: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike `Hasher`
        for byte in messageID.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return "=_til_" + String(hash, radix: 16)
    }

    /// `Tue, 24 Nov 2026 21:05:09 +0000` (RFC 5322 §3.3), always in UTC.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
