import Foundation
import TILClient
import XCTest

/// A credential goes only to the origin that issued it (`Origin`: scheme, host, port), and the
/// origin checked must be the host the request really goes to. Foundation maps a URL's host by
/// IDNA (UTS 46) when it makes the URL, and the request connects to that mapped host: so ASCII
/// case, fullwidth letters and an invisible zero-width space are the same host, and the same
/// origin. What IDNA keeps apart — look-alike letters of other scripts (punycode), a dotless ı,
/// a trailing dot, a numeric host written another way — is another origin: the credential
/// stays home, and `til login` treats the host as not this machine.
final class OriginSpellingTests: XCTestCase {
    private func origin(_ text: String) throws -> Origin {
        try XCTUnwrap(Origin(try XCTUnwrap(URL(string: text), text)), text)
    }

    func testSpellingsOfOneHostAreOneOriginTheRequestGoesTo() throws {
        let issued = try origin("http://localhost:8080")
        let sameHost = [
            "http://LOCALHOST:8080", "HTTP://LocalHost:8080/api/users", "http://localhost:8080/", "http://ｌｏｃａｌｈｏｓｔ:8080",
            "http://localhost\u{200B}:8080",
        ]
        for text in sameHost {
            let url = try XCTUnwrap(URL(string: text), text)
            XCTAssertEqual(try origin(text), issued, text)
            XCTAssertEqual(url.host?.lowercased(), "localhost", "\(text): the request goes elsewhere than its origin says")
            XCTAssertTrue(try origin(text).isLoopback, text)
        }
        XCTAssertEqual(try origin("http://[::FFFF:127.0.0.1]:8080"), try origin("http://[::ffff:127.0.0.1]:8080"))
        XCTAssertEqual(try origin("https://TIL.Example.TEST"), try origin("https://til.example.test:443"))
    }

    func testLookAlikesAreOtherOrigins() throws {
        let issuers = [try origin("http://localhost:8080"), try origin("http://127.0.0.1:8080")]
        let lookAlikes = [
            "http://l\u{43E}calhost:8080", "http://loca\u{131}host:8080", "http://localhost.:8080", "http://localhost.example.test:8080",
            "http://127.0.0.1.example.test:8080", "http://127.1:8080", "http://2130706433:8080", "http://0x7f.0.0.1:8080",
            "http://127.000.000.001:8080",
        ]
        for text in lookAlikes {
            guard let url = URL(string: text), let spelled = Origin(url) else { continue }  // no origin: nothing is ever sent
            XCTAssertFalse(issuers.contains(spelled), "\(text) reads as \(spelled)")
            XCTAssertNotEqual(url.host?.lowercased(), "localhost", text)
            XCTAssertFalse(spelled.isLoopback, "\(text) counted as this machine")
        }
    }
}
