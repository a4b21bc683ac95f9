import Foundation
import Mail
import MailTesting
import XCTest

/// The message's bytes: headers, MIME parts, encodings, and the refusal of any header value
/// that could add a line of its own.
final class MailMessageTests: XCTestCase {
    func message(subject: String = "Reset your password", text: String = "Hello\nline two", html: String = "<p>Hello</p>") throws
        -> MailMessage
    {
        MailMessage(
            from: try MailFrom(parsing: "TIL <no-reply@til.example>"), to: try MailAddress("ada@example.com"), subject: subject,
            text: text, html: html, messageID: "3f2a@til.example", date: Date(timeIntervalSince1970: 1_795_000_000))
    }

    func testHeadersAndBothParts() throws {
        let bytes = try message().rendered()
        let raw = String(decoding: bytes, as: UTF8.self)
        XCTAssertFalse(raw.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
        let mail = ParsedMail(bytes)
        XCTAssertEqual(mail.header("From"), "\"TIL\" <no-reply@til.example>")
        XCTAssertEqual(mail.header("To"), "ada@example.com")
        XCTAssertEqual(mail.header("Message-ID"), "<3f2a@til.example>")
        XCTAssertEqual(mail.header("Date"), "Wed, 18 Nov 2026 11:06:40 +0000")
        XCTAssertEqual(mail.header("MIME-Version"), "1.0")
        XCTAssertEqual(mail.header("Auto-Submitted"), "auto-generated")
        XCTAssertEqual(mail.subject, "Reset your password")
        XCTAssertTrue(try XCTUnwrap(mail.header("Content-Type")).hasPrefix("multipart/alternative; boundary="))
        XCTAssertEqual(mail.parts.count, 2)
        XCTAssertEqual(mail.text, "Hello\nline two", "ParsedMail gives line ends as LF")
        XCTAssertEqual(mail.html, "<p>Hello</p>")
    }

    func testSameValueSameBytes() throws {
        XCTAssertEqual(try message().rendered(), try message().rendered())
    }

    func testNonASCIISubjectIsEncodedWordsThatDecodeBack() throws {
        let subject = "Réinitialisez votre mot de passe — 密码重置 ✉️ " + String(repeating: "é", count: 40)
        let mail = ParsedMail(try message(subject: subject).rendered())
        let raw = try XCTUnwrap(mail.header("Subject"))
        XCTAssertTrue(raw.allSatisfy(\.isASCII), raw)
        XCTAssertEqual(mail.subject, subject)
        let rendered = String(decoding: try message(subject: subject).rendered(), as: UTF8.self)
        for line in rendered.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 998) }
        for word in raw.split(separator: " ") { XCTAssertLessThanOrEqual(word.count, 75, "RFC 2047 §2: a word is at most 75 characters") }
    }

    func testTextThatLooksLikeAnEncodedWordIsEncodedToo() throws {
        let mail = ParsedMail(try message(subject: "=?UTF-8?B?aGk=?= literally").rendered())
        XCTAssertEqual(mail.subject, "=?UTF-8?B?aGk=?= literally")
    }

    func testQuotedPrintableKeepsLongLinesAndUnicodeIntact() throws {
        let link = "https://til.example/reset-password?token=" + String(repeating: "AbC-_9", count: 20)
        let text = "Bonjour Zoë,\n\n" + link + "\n. a line starting with a dot\ntrailing space \nend=equals"
        let bytes = try message(text: text, html: "<a href=\"\(link)\">Réinitialiser</a>").rendered()
        for line in String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n") {
            XCTAssertLessThanOrEqual(line.utf8.count, 76, line)
            XCTAssertTrue(line.allSatisfy(\.isASCII), "7-bit: \(line)")
        }
        let mail = ParsedMail(bytes)
        XCTAssertEqual(mail.text, text)
        XCTAssertEqual(mail.html, "<a href=\"\(link)\">Réinitialiser</a>")
    }

    func testCRLFInAnyHeaderValueIsRefused() throws {
        for subject in ["Hi\r\nBcc: victim@example.com", "Hi\nX: y", "Hi\rX", "tab\tinside", "nul\u{0}"] {
            XCTAssertThrowsError(try message(subject: subject).rendered()) { error in
                XCTAssertEqual(error as? MailHeaderError, .controlCharacter(header: "Subject"))
            }
        }
        for address in ["ada@example.com\r\nRCPT TO:<x@y>", "ada@example.com>", "<ada@example.com", "a b@c", "no-at", "a@b@c", "@b", "a@"] {
            XCTAssertThrowsError(try MailAddress(address), address)
        }
        XCTAssertThrowsError(try MailFrom(parsing: "TIL\r\nBcc: x@y <no-reply@til.example>"))
        var bad = try message()
        bad.messageID = "id@til.example>\r\nBcc: x@y"
        XCTAssertThrowsError(try bad.rendered())
    }

    func testTooLongSubjectIsRefused() throws {
        XCTAssertThrowsError(try message(subject: String(repeating: "a", count: 1000)).rendered()) { error in
            XCTAssertEqual(error as? MailHeaderError, .tooLong(header: "Subject"))
        }
    }

    func testFromForms() throws {
        XCTAssertEqual(try MailFrom(parsing: "no-reply@til.example").name, nil)
        let named = try MailFrom(parsing: "  \"Today I Learned\" <no-reply@til.example> ")
        XCTAssertEqual(named.name, "Today I Learned")
        XCTAssertEqual(named.address.address, "no-reply@til.example")
        let unicode = try MailFrom(parsing: "Ça marche <no-reply@til.example>")
        var value = try message()
        value.from = unicode
        let header = try XCTUnwrap(ParsedMail(try value.rendered()).header("From"))
        XCTAssertTrue(header.hasPrefix("=?UTF-8?B?"), header)
        XCTAssertTrue(header.hasSuffix(" <no-reply@til.example>"), header)
    }

    func testUnicodeRecipientStaysUTF8() throws {
        var value = try message()
        value.to = try MailAddress("zoë@exämple.com")
        XCTAssertEqual(ParsedMail(try value.rendered()).header("To"), "zoë@exämple.com")
    }
}
