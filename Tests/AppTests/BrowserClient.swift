import AppTesting
import Crypt
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// A browser as far as TIL's pages need one: a cookie jar (Set-Cookie stored, Max-Age=0
/// removing, sent back as `Cookie`), and forms read from the HTML the way a browser reads them
/// (inputs and buttons with their names and values, entities decoded), then posted
/// form-encoded. Redirects are followed only when a test asks.
final class BrowserClient {
    let client: TestClient
    private(set) var cookies: [String: String] = [:]

    init(_ client: TestClient) { self.client = client }

    func get(_ target: String) async throws -> TestResponse {
        try await send(.get, target)
    }

    /// Posts `fields` form-encoded to `target`.
    func post(_ target: String, _ fields: [(name: String, value: String)]) async throws -> TestResponse {
        try await send(.post, target, body: Array(QueryEncoding.encode(fields).utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// Submits `form` with its fields, `changes` replacing or adding values, and `button`'s
    /// name and value as the one clicked.
    func submit(
        _ form: HTMLForm, _ changes: [String: String] = [:], clicking button: (name: String, value: String)? = nil,
        from page: String = "/"
    ) async throws -> TestResponse {
        var fields = form.fields.map { (name: $0.name, value: changes[$0.name] ?? $0.value) }
        for (name, value) in changes where !fields.contains(where: { $0.name == name }) { fields.append((name, value)) }
        if let button { fields.append(button) }
        return try await post(form.action ?? page, fields)
    }

    func send(
        _ method: HTTPMethod, _ target: String, body: [UInt8] = [], contentType: String? = nil, headers: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if !cookies.isEmpty {
            headers.add(name: "Cookie", value: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        let response = try await client.send(method, target, headers: headers, body: body)
        for header in response.headers.values(for: "Set-Cookie") {
            let attributes = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = attributes.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            if attributes.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }

    func setCookie(_ name: String, _ value: String?) { cookies[name] = value }
}

/// A form as a browser sees it in a page.
struct HTMLForm {
    let action: String?
    let method: String
    /// Inputs with a name, in document order.
    let fields: [(name: String, value: String)]
    /// Submit buttons with a name.
    let buttons: [(name: String, value: String)]

    func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Every form of `html`.
    static func all(in html: String) -> [HTMLForm] {
        html.components(separatedBy: "<form").dropFirst().map { chunk in
            let body = chunk.components(separatedBy: "</form>")[0]
            let formTag = String(body.prefix { $0 != ">" })
            func tags(_ name: String) -> [[String: String]] {
                body.components(separatedBy: "<\(name)").dropFirst().map { attributes(String($0.prefix { $0 != ">" })) }
            }
            let attrs = attributes(formTag)
            return HTMLForm(
                action: attrs["action"], method: attrs["method"] ?? "get",
                fields: tags("input").compactMap { tag in tag["name"].map { (name: $0, value: tag["value"] ?? "") } },
                buttons: tags("button").compactMap { tag in tag["name"].map { (name: $0, value: tag["value"] ?? "") } })
        }
    }

    /// The one form of a page, failing the test unless there is exactly one.
    static func only(in response: TestResponse, file: StaticString = #filePath, line: UInt = #line) throws -> HTMLForm {
        let forms = all(in: response.bodyString)
        XCTAssertEqual(forms.count, 1, "forms in: \(response.bodyString)", file: file, line: line)
        return try XCTUnwrap(forms.first, file: file, line: line)
    }

    /// `name="value"` attributes of a tag (values double-quoted, as TIL writes them).
    private static func attributes(_ tag: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(tag)
        while let equals = rest.range(of: "=\"") {
            let name = rest[..<equals.lowerBound].split(separator: " ").last.map(String.init) ?? ""
            let afterQuote = rest[equals.upperBound...]
            guard let close = afterQuote.firstIndex(of: "\"") else { break }
            result[name] = decodeEntities(String(afterQuote[..<close]))
            rest = afterQuote[afterQuote.index(after: close)...]
        }
        return result
    }

    static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

extension TestResponse {
    /// The `Location` of a redirect, split into its URI and decoded query items.
    var location: String? { headers["Location"] }

    func redirectQuery(file: StaticString = #filePath, line: UInt = #line) throws -> [String: String] {
        let location = try XCTUnwrap(headers["Location"], "no Location: \(status.code) \(bodyString)", file: file, line: line)
        let query = location.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        var items: [String: String] = [:]
        for pair in QueryParameters(query).pairs {
            XCTAssertNil(items[pair.name], "\(pair.name) twice in \(location)", file: file, line: line)
            items[pair.name] = pair.value
        }
        return items
    }

    /// Fails unless every header a page must carry is there.
    func assertPageHeaders(file: StaticString = #filePath, line: UInt = #line) {
        let csp = headers["Content-Security-Policy"] ?? ""
        for directive in ["default-src 'none'", "style-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"] {
            XCTAssertTrue(csp.contains(directive), "CSP \(csp) lacks \(directive)", file: file, line: line)
        }
        XCTAssertEqual(headers["X-Frame-Options"], "DENY", file: file, line: line)
        XCTAssertEqual(headers["Cache-Control"], "no-store", file: file, line: line)
        XCTAssertEqual(headers["Referrer-Policy"], "no-referrer", file: file, line: line)
        XCTAssertEqual(headers["X-Content-Type-Options"], "nosniff", file: file, line: line)
        XCTAssertEqual(headers["Content-Type"], "text/html; charset=utf-8", file: file, line: line)
    }
}

/// Signing in through the pages, for tests that need a browser session.
extension BrowserClient {
    /// Shows `/login` (or `target`), fills its form and posts it; the answer to the post.
    @discardableResult
    func signIn(_ username: String, _ password: String = "password", at target: String = "/login") async throws -> TestResponse {
        let page = try await get(target)
        let form = try HTMLForm.only(in: page)
        return try await submit(form, ["username": username, "password": password])
    }

    /// Whether the cookies prove a browser session, as `/login` shows it (no username field
    /// when they do).
    func isSignedIn() async throws -> Bool {
        try HTMLForm.only(in: try await get("/login")).value("username") == nil
    }
}

/// An OAuth client written straight into `oauth_clients`: registration cannot make a trusted
/// (first-party) client, which only `til-server clients add --trusted` does.
struct StoredClient {
    let id: String
    let redirectURIs: [String]

    static func create(
        id: String = "app-\(UUID().uuidString.prefix(8))", name: String = "Notes App",
        redirectURIs: [String] = ["https://app.example/callback"],
        scope: [String] = ["acronyms:write", "categories:write"], trusted: Bool = false,
        grantTypes: [String] = ["authorization_code", "refresh_token"], on app: TestApp
    ) async throws -> StoredClient {
        try await app.til.db.execute("""
            INSERT INTO oauth_clients (id, name, auth_method, redirect_uris, grant_types, scope, trusted)
            VALUES (\(id), \(name), 'none', \(redirectURIs.joined(separator: " ")), \(grantTypes.joined(separator: " ")),
                    \(scope.joined(separator: " ")), \(trusted))
            """)
        return StoredClient(id: id, redirectURIs: redirectURIs)
    }
}

/// A PKCE pair: a random verifier and its S256 challenge.
struct PKCEPair {
    let verifier = SecureRandom.token() + SecureRandom.token()
    var challenge: String { PKCE.challenge(of: verifier) }
}
