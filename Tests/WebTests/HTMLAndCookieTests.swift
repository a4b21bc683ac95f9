import Foundation
import Logging
import Web
import XCTest

/// The page primitives: HTML escaped by construction, cookies read and written, query strings
/// encoded so that `QueryParameters` reads back exactly what was written.
final class HTMLAndCookieTests: XCTestCase {
    func testInterpolatedTextIsEscapedAndHTMLIsKept() {
        let name = #"<script>alert("x")</script> & 'quotes'"#
        let inner: HTML = "<em>\(name)</em>"
        let page: HTML = "<p title=\"\(name)\">\(inner)</p>"
        XCTAssertEqual(
            page.markup,
            #"<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">"#
                + #"<em>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</em></p>"#)
        XCTAssertEqual(HTML.escape("Zoë ✓ 日本"), "Zoë ✓ 日本", "non-ASCII text needs no escaping in UTF-8")
        XCTAssertEqual(HTML.joined([HTML(escaping: "<a>"), "<br>"], separator: " ").markup, "&lt;a&gt; <br>")
        let number = 42
        XCTAssertEqual(("<i>\(number)</i>" as HTML).markup, "<i>42</i>")
    }

    func testCookiesAreReadFromEveryCookieHeaderFirstOneWinning() {
        let logger = Logger(label: "test")
        let request = Request(
            method: .get, target: "/", headers: HTTPHeaders([("Cookie", " a=1;b= two ; a=3"), ("Cookie", "c=x=y")]), logger: logger)
        XCTAssertEqual(request.cookie("a"), "1")
        XCTAssertEqual(request.cookie("b"), "two")
        XCTAssertEqual(request.cookie("c"), "x=y")
        XCTAssertNil(request.cookie("d"))
        XCTAssertNil(Request(method: .get, target: "/", logger: logger).cookie("a"))
    }

    func testSetCookieIsHttpOnlyLaxAndSecureWithTheHostPrefixOnHTTPS() {
        let plain = SetCookie(name: SetCookie.hostPrefixed("s", secure: false), value: "v", maxAge: 60, secure: false)
        XCTAssertEqual(plain.headerValue, "s=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax")
        let secure = SetCookie(name: SetCookie.hostPrefixed("s", secure: true), value: "v", maxAge: 60, secure: true)
        XCTAssertEqual(secure.headerValue, "__Host-s=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure")
        XCTAssertEqual(SetCookie.removing("s", secure: false).headerValue, "s=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
        XCTAssertEqual(SetCookie(name: "s", value: "v", maxAge: -5, secure: false).maxAge, 0)
        var headers = HTTPHeaders()
        headers.setCookie(plain)
        headers.setCookie(secure)
        XCTAssertEqual(headers.values(for: "Set-Cookie").count, 2, "one header per cookie")
    }

    func testQueryEncodingRoundTripsThroughQueryParameters() {
        let pairs: [(name: String, value: String)] = [
            ("state", "a b&c=d+e/f?g#h"), ("ü", "日本 ✓"), ("empty", ""), ("percent", "100%"), ("state", "twice"),
        ]
        let encoded = QueryEncoding.encode(pairs)
        XCTAssertFalse(encoded.contains(" ") || encoded.contains("#") || encoded.contains("+"), encoded)
        let decoded = QueryParameters(Substring(encoded)).pairs
        XCTAssertEqual(decoded.map(\.name), pairs.map(\.name))
        XCTAssertEqual(decoded.map(\.value), pairs.map(\.value))
        XCTAssertEqual(QueryEncoding.appending([("code", "c")], to: "https://a.example/cb"), "https://a.example/cb?code=c")
        XCTAssertEqual(QueryEncoding.appending([("code", "c")], to: "https://a.example/cb?x=1"), "https://a.example/cb?x=1&code=c")
        XCTAssertEqual(QueryEncoding.escape("-._~AZaz09"), "-._~AZaz09")
    }
}
