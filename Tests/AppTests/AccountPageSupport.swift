import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// The account page as a browser reaches it: signed in through the pages, then `/account`.
extension BrowserClient {
    /// Signs in as `username` (password "password") and shows the account page, failing the
    /// test unless the sign-in leads there and the page is a 200.
    func accountPage(signingInAs username: String, file: StaticString = #filePath, line: UInt = #line) async throws -> TestResponse {
        let signedIn = try await signIn(username)
        XCTAssertEqual(signedIn.location, "/account", "a sign-in without return_to leads to the account page", file: file, line: line)
        let page = try await get("/account")
        XCTAssertEqual(page.status, .ok, page.bodyString, file: file, line: line)
        return page
    }
}

extension TestApp {
    /// A new user `username` (password "password") signed in through the pages in a new
    /// browser, and the account page it was shown.
    func accountBrowser(_ username: String, file: StaticString = #filePath, line: UInt = #line) async throws -> (BrowserClient, TestResponse) {
        _ = try await User.create(username: username, on: self)
        let browser = BrowserClient(client)
        return (browser, try await browser.accountPage(signingInAs: username, file: file, line: line))
    }
}

extension BrowserClient {
    /// Submits `form` (with `changes`) twice at once, as a double click or two tabs would:
    /// both posts are in flight together, outside the cookie jar. The two answers' statuses,
    /// sorted.
    func submitTwiceAtOnce(_ form: HTMLForm, _ changes: [String: String] = [:]) async throws -> [Int] {
        let cookie = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        let headers: HTTPHeaders = ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"]
        let body = Array(QueryEncoding.encode(form.fields.map { (name: $0.name, value: changes[$0.name] ?? $0.value) }).utf8)
        let (client, action) = (client, try XCTUnwrap(form.action))
        async let first = client.send(.post, action, headers: headers, body: body)
        async let second = client.send(.post, action, headers: headers, body: body)
        return try await [first, second].map(\.status.code).sorted()
    }
}

extension HTMLForm {
    /// The form of `page` posting to `action`, failing the test when there is none.
    static func posting(to action: String, in page: TestResponse, file: StaticString = #filePath, line: UInt = #line) throws -> HTMLForm {
        let forms = all(in: page.bodyString)
        return try XCTUnwrap(forms.first { $0.action == action }, "no form to \(action) in \(page.bodyString)", file: file, line: line)
    }
}

extension TestResponse {
    /// The content of `<meta name="csrf-token">`, the passkeys script's token.
    var csrfMeta: String? {
        let marker = #"<meta name="csrf-token" content=""#
        guard let start = bodyString.range(of: marker) else { return nil }
        return String(bodyString[start.upperBound...].prefix { $0 != "\"" })
    }
}
