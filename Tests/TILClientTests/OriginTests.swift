import Foundation
import TILClient
import XCTest

/// Origins (scheme, host, port) as credentials record them and the pipeline compares them.
final class OriginTests: XCTestCase {
    private func origin(_ text: String) throws -> Origin {
        try XCTUnwrap(Origin(try XCTUnwrap(URL(string: text))), text)
    }

    func testAnOriginIsSchemeHostAndPortWithDefaultsFilledIn() throws {
        XCTAssertEqual(try origin("HTTP://Example.TEST/api/users?x=1"), try origin("http://example.test:80"))
        XCTAssertEqual(try origin("https://example.test/").description, "https://example.test:443")
        XCTAssertEqual(try origin("http://[::1]:8080/").description, "http://[::1]:8080")
        XCTAssertNotEqual(try origin("http://example.test"), try origin("https://example.test"), "the scheme counts")
        XCTAssertNotEqual(try origin("http://127.0.0.1:8080"), try origin("http://127.0.0.1:8081"), "the port counts")
        XCTAssertNotEqual(try origin("http://127.0.0.1"), try origin("http://localhost"), "hosts compare as written")
        XCTAssertNil(Origin(URL(string: "ftp://example.test")!))
        XCTAssertNil(Origin(URL(string: "/api/users")!))
    }

    func testOriginsRoundTripAsTheirText() throws {
        let origins = [try origin("http://127.0.0.1:8080"), try origin("https://[::1]")]
        let data = try JSONEncoder().encode(origins)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["http:\/\/127.0.0.1:8080","https:\/\/[::1]:443"]"#)
        XCTAssertEqual(try JSONDecoder().decode([Origin].self, from: data), origins)
        XCTAssertThrowsError(try JSONDecoder().decode([Origin].self, from: Data(#"["not an origin"]"#.utf8)))
    }

    func testLoopbackIsThisMachineOnly() throws {
        for text in ["http://127.0.0.1:8080", "http://127.1.2.3", "http://localhost:8080", "http://[::1]:8080", "http://[::ffff:127.0.0.1]"] {
            XCTAssertTrue(try origin(text).isLoopback, text)
        }
        for text in ["http://example.test", "http://10.0.0.1", "http://128.0.0.1", "http://[::2]", "http://localhost.example.test", "http://[::ffff:10.0.0.1]"] {
            XCTAssertFalse(try origin(text).isLoopback, text)
        }
    }
}
