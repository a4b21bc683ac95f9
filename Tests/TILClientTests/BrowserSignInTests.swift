import Foundation
import TILClient
import XCTest

/// The authorization URL a native app opens, and every check of the URL the browser brings
/// back, against a live server's metadata (RFC 8414, RFC 9207): no browser needed to refuse.
final class BrowserSignInTests: XCTestCase {
    func testTheURLCarriesPKCEStateAndNonceFreshForEverySignIn() async throws {
        try await LiveServer.run { server in
            let til = server.client()
            let redirect = URL(string: "http://127.0.0.1:49152/callback")!
            let signIn = try await til.beginBrowserSignIn(redirectURI: redirect, scopes: [.acronymsWrite, Scope(rawValue: "openid")])
            XCTAssertTrue(signIn.url.absoluteString.hasPrefix(server.url.absoluteString + "/oauth/authorize?"), signIn.url.absoluteString)
            let query = try Self.query(of: signIn.url)
            XCTAssertEqual(query["response_type"], "code")
            XCTAssertEqual(query["client_id"], "til-cli")
            XCTAssertEqual(query["redirect_uri"], "http://127.0.0.1:49152/callback")
            XCTAssertEqual(query["scope"], "acronyms:write openid")
            XCTAssertEqual(query["code_challenge_method"], "S256")
            XCTAssertEqual(query["state"], signIn.state)
            XCTAssertEqual(query["nonce"], signIn.nonce)
            XCTAssertEqual(signIn.issuer, server.url.absoluteString, "the issuer from the metadata")
            let others = try await withThrowingTaskGroup(of: BrowserSignIn.self) { group in
                for _ in 0..<16 { group.addTask { try await til.beginBrowserSignIn(redirectURI: redirect) } }
                return try await group.reduce(into: [signIn]) { $0.append($1) }
            }
            for field in [\BrowserSignIn.state, \.nonce] {
                let values = others.map { $0[keyPath: field] }
                XCTAssertEqual(Set(values).count, values.count, "never repeated")
                XCTAssertTrue(values.allSatisfy { $0.utf8.count == 43 && Data(base64URL: $0)?.count == 32 }, "256 bits: \(values)")
            }
            let challenges = try others.map { try XCTUnwrap(try Self.query(of: $0.url)["code_challenge"]) }
            XCTAssertEqual(Set(challenges).count, challenges.count)
            XCTAssertNil(try Self.query(of: others[1].url)["scope"], "no scope: what the client is registered for")
        }
    }

    /// CSRF (RFC 6749 §10.12): another state, none, or the same text spelled otherwise, is
    /// refused before anything else is read; mix-up (RFC 9207): the issuer byte for byte, and
    /// required since the server promises it; RFC 6749 §4.1.2.1: the server's refusal in its
    /// words; no code, or two, is no answer.
    func testACallbackThatIsNotThisSignInsAnswerIsRefusedSayingWhy() async throws {
        // Each case: what differs from the right answer (`code`, `state`, `iss`; nil removes).
        try await assertRefused { state, iss in
            [
                ("wrong state", ["state": "forged"], "invalid_callback", "state"),
                ("no state", ["state": nil], "invalid_callback", "state"),
                ("a forged refusal", ["code": nil, "error": "access_denied", "state": "forged"], "invalid_callback", "state"),
                ("state in fullwidth letters", ["state": Self.fullwidth(state)], "invalid_callback", "state"),
                ("state with a zero-width space", ["state": state + "%E2%80%8B"], "invalid_callback", "state"),
                ("state with a combining accent", ["state": state + "%CC%81"], "invalid_callback", "state"),
                ("no iss", ["iss": nil], "invalid_callback", "names no issuer"),
                ("wrong iss", ["iss": "https%3A%2F%2Fevil.example"], "invalid_callback", "https://evil.example"),
                ("iss in capitals", ["iss": iss.uppercased()], "invalid_callback", "issuer"),
                ("iss with a trailing slash", ["iss": iss + "/"], "invalid_callback", "issuer"),
                ("refused", ["code": nil, "error": "access_denied", "error_description": "The+user+said+no"], "access_denied", "The user said no"),
                ("refused without words", ["code": nil, "error": "invalid_scope"], "invalid_scope", "refused"),
                ("no code", ["code": nil], "invalid_callback", "no code"),
                ("empty code", ["code": ""], "invalid_callback", "no code"),
                ("code twice", ["code": "a&code=b"], "invalid_callback", "'code' more than once"),
            ]
        }
    }

    /// The answer must come to this sign-in's redirect URI, and be of a sane size.
    func testACallbackToAnotherAddressOrTooLongIsRefused() async throws {
        try await LiveServer.run { server in
            let til = server.client()
            let signIn = try await til.beginBrowserSignIn(redirectURI: URL(string: "http://127.0.0.1:49152/callback")!)
            let answer = "code=abc&state=\(signIn.state)&iss=\(signIn.issuer)"
            for (name, url) in [
                ("another path", "http://127.0.0.1:49152/elsewhere?\(answer)"), ("another port", "http://127.0.0.1:49153/callback?\(answer)"),
                ("another scheme", "com.example.app:/callback?\(answer)"),
            ] {
                await Self.assertSignInFails(try await til.finishBrowserSignIn(signIn, callback: URL(string: url)!), "invalid_callback", "redirect URI", name)
            }
            let huge = URL(string: "http://127.0.0.1:49152/callback?\(answer)&pad=\(String(repeating: "a", count: 20_000))")!
            await Self.assertSignInFails(try await til.finishBrowserSignIn(signIn, callback: huge), "invalid_callback", "longer than")
            let stored = try await til.credentials()
            XCTAssertTrue(stored.isEmpty, "nothing kept")
        }
    }

    func testAServerWhoseMetadataNamesAnotherIssuerIsRefused() async throws {
        try await LiveServer.run(settings: ["ISSUER": "https://til.example"]) { server in
            do {
                _ = try await server.client().beginBrowserSignIn(redirectURI: URL(string: "http://127.0.0.1:49152/callback")!)
                XCTFail("signed in against another issuer's metadata")
            } catch TILError.invalidResponse(let reason) {
                XCTAssertTrue(reason.contains("https://til.example") && reason.contains("RFC 8414"), reason)
            }
        }
    }

    /// Each of `cases(state, iss)` — a name, how its answer differs from the right one, the
    /// error code and words of its reason — fails to complete a fresh sign-in; nothing is kept.
    private func assertRefused(
        _ cases: (_ state: String, _ iss: String) -> [(String, [String: String?], String, String)],
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        try await LiveServer.run { server in
            let til = server.client()
            let signIn = try await til.beginBrowserSignIn(redirectURI: URL(string: "http://127.0.0.1:49152/callback")!)
            for (name, changes, error, words) in cases(signIn.state, signIn.issuer) {
                var pairs: [(String, String?)] = [("code", "abc"), ("state", signIn.state), ("iss", signIn.issuer)]
                pairs = pairs.map { ($0.0, changes.keys.contains($0.0) ? changes[$0.0]! : $0.1) }
                pairs += changes.filter { change in !pairs.contains { $0.0 == change.key } }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                let query = pairs.compactMap { pair in pair.1.map { "\(pair.0)=\($0)" } }.joined(separator: "&")
                let callback = try XCTUnwrap(URL(string: "http://127.0.0.1:49152/callback?" + query), name)
                await Self.assertSignInFails(try await til.finishBrowserSignIn(signIn, callback: callback), error, words, name, file: file, line: line)
            }
            let stored = try await til.credentials()
            XCTAssertTrue(stored.isEmpty, "nothing kept", file: file, line: line)
        }
    }

    /// `text` with its ASCII letters and digits as their fullwidth forms, percent-encoded.
    static func fullwidth(_ text: String) -> String {
        let wide = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? Unicode.Scalar(scalar.value + 0xFEE0) ?? scalar : scalar
        }))
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return wide.addingPercentEncoding(withAllowedCharacters: unreserved) ?? wide
    }

    static func query(of url: URL) throws -> [String: String] {
        let items = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    static func assertSignInFails(
        _ work: @autoclosure () async throws -> some Any, _ error: String, _ words: String, _ name: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await work()
            XCTFail("\(name): signed in", file: file, line: line)
        } catch TILError.signInFailed(let code, let reason) {
            XCTAssertEqual(code, error, "\(name): \(reason)", file: file, line: line)
            XCTAssertTrue(reason.contains(words), "\(name): \(reason)", file: file, line: line)
        } catch {
            XCTFail("\(name): \(error)", file: file, line: line)
        }
    }
}

extension Data {
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
