import Foundation
import Web
import WebTesting
import XCTest

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
