import AppTesting
import Web
import WebTesting
import XCTest
@testable import App

/// Every metric family `/metrics` exposes says what it counts: a `# HELP` line with text for
/// each `# TYPE` line, those made through swift-metrics (requests, latencies, logins) included.
final class MetricsHelpTests: XCTestCase {
    func testEveryFamilyHasHelpText() async throws {
        try await withTestApp { app in
            _ = try await app.sendRequest(to: "/health", method: .get)
            _ = try await app.sendRequest(to: "/no/such/path", method: .get)
            _ = try await app.client.session("admin")
            let response = try await app.client.send(.get, "/metrics")
            XCTAssertEqual(response.status.code, 200)

            var typed: [String] = []
            var help: [String: String] = [:]
            for line in response.bodyString.split(separator: "\n") {
                let words = line.split(separator: " ", maxSplits: 3).map(String.init)
                guard words.count >= 3, words[0] == "#" else { continue }
                switch words[1] {
                case "TYPE": typed.append(words[2])
                case "HELP": help[words[2]] = words.count == 4 ? words[3] : ""
                default: XCTFail("unknown comment: \(line)")
                }
            }
            for family in ["http_requests_total", "http_request_duration_seconds", "til_logins_total",
                           "http_open_connections", "til_db_pool_connections_in_use", "http_early_responses_total"] {
                XCTAssertTrue(typed.contains(family), "\(family) is exposed")
            }
            for family in typed {
                XCTAssertFalse(help[family, default: ""].isEmpty, "# HELP \(family)")
            }
            XCTAssertEqual(Set(help.keys), Set(typed), "no # HELP without its # TYPE")
        }
    }
}
