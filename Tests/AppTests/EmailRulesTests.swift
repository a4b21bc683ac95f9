import Foundation
import Web
import XCTest
@testable import App

/// `EmailRules`: a plain syntax check, nothing cleverer. Each refusal a 400 naming the field.
final class EmailRulesTests: XCTestCase {
    func testPlainAddressesAreAcceptedInNFC() throws {
        for address in ["tim@til.example", "T.Condon+til@Mail.Example.COM", "a@b.co", "o'brien@x.example", "zoë@bücher.example",
                        "用户@例子.广告", String(repeating: "a", count: 64) + "@x.example"] {
            XCTAssertEqual(try EmailRules.validate(address), address.precomposedStringWithCanonicalMapping, address)
        }
        let decomposed = "zoe\u{0308}@til.example"
        XCTAssertEqual(try EmailRules.validate(decomposed), "zo\u{EB}@til.example", "stored composed")
        let longest = String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 181) + ".example"
        XCTAssertEqual(longest.utf8.count, 254)
        XCTAssertNoThrow(try EmailRules.validate(longest))
    }

    func testEachRuleIsAClear400NamingTheField() {
        let refused: [(String, String)] = [
            ("", "'email' must not be empty."),
            (String(repeating: "a", count: 60) + "@" + String(repeating: "b", count: 231) + ".example", "'email' must be at most 254 bytes."),
            ("a@b@c.example", "'email' must hold exactly one '@'."),
            ("tim.til.example", "'email' must hold exactly one '@'."),
            ("tim\u{FF20}til.example", "'email' must hold exactly one '@'."),  // a full-width at sign is no '@'
            ("@til.example", "'email' must have a name of 1 to 64 bytes before the '@'."),
            (String(repeating: "a", count: 65) + "@x.example", "'email' must have a name of 1 to 64 bytes before the '@'."),
            ("tim@localhost", "'email' must have a domain with a dot after the '@' (like example.com)."),
            ("tim@", "'email' must have a domain with a dot after the '@' (like example.com)."),
            ("tim@.example", "'email' must have a domain with a dot after the '@' (like example.com)."),
            ("tim@til..example", "'email' must have a domain with a dot after the '@' (like example.com)."),
            ("tim@til.example.", "'email' must have a domain with a dot after the '@' (like example.com)."),
            ("tim @til.example", "'email' must not contain spaces."),
            ("tim@til.example\u{3000}", "'email' must not contain spaces."),
            ("tim\u{0}@til.example", "'email' must not contain control characters."),
            ("tim@til.example\r\nBcc: x@evil.example", "'email' must not contain control characters."),
            ("tim\u{7F}@til.example", "'email' must not contain control characters."),
            ("tim\u{200B}@til.example", "'email' must not contain invisible formatting characters (Unicode Cf)."),
            ("\"tim\"@til.example", #"'email' must be a plain address: no quotes, comments or any of " ( ) , : ; < > [ ] \."#),
            ("tim(comment)@til.example", #"'email' must be a plain address: no quotes, comments or any of " ( ) , : ; < > [ ] \."#),
            ("Tim <tim@til.example>", "'email' must not contain spaces."),
            ("<tim@til.example>", #"'email' must be a plain address: no quotes, comments or any of " ( ) , : ; < > [ ] \."#),
            ("tim@[127.0.0.1]", #"'email' must be a plain address: no quotes, comments or any of " ( ) , : ; < > [ ] \."#),
            ("a@b.example,c@d.example", #"'email' must be a plain address: no quotes, comments or any of " ( ) , : ; < > [ ] \."#),
        ]
        for (address, reason) in refused {
            XCTAssertThrowsError(try EmailRules.validate(address), address.debugDescription) { error in
                XCTAssertEqual((error as? Abort)?.status, .badRequest, address.debugDescription)
                XCTAssertEqual((error as? Abort)?.reason, reason, address.debugDescription)
            }
        }
    }

    /// The limit is 254 bytes of the stored (NFC) form: an address of 254 decomposed bytes fits
    /// once composed; one of 254 composed bytes is not cut to fit.
    func testTheLimitCountsBytesOfTheComposedForm() throws {
        let local = String(repeating: "e\u{0301}", count: 20)  // 60 bytes decomposed, 40 composed
        let decomposed = local + "@" + String(repeating: "b", count: 195) + ".example"
        XCTAssertGreaterThan(decomposed.utf8.count, 254)
        XCTAssertEqual(try EmailRules.validate(decomposed).utf8.count, 244)
        XCTAssertThrowsError(try EmailRules.validate(String(repeating: "é", count: 2) + "@" + String(repeating: "b", count: 244) + ".example"))
    }
}
