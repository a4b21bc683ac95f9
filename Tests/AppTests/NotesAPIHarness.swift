import AppTesting
import Foundation
import Postgres
import Web
import WebTesting
import XCTest
@testable import App

/// The example resource server of issue 19 (`notes-api`, Examples/Notes) as its end-to-end
/// tests run it: the real binary on a loopback port, configured by its environment only,
/// trusting a live TIL over the test database whose `RESOURCES` lists it.
struct NotesAPIHarness {
    let app: TestApp
    let notes: ServerProcess
    /// The notes API's resource URI (`http://127.0.0.1:PORT`, its default).
    let resource: String
    let issuer: String
    /// The notes API's own confidential client at TIL (introspection, `client_credentials`).
    let notesClient: TestOAuthClient

    var tilAPI: String { issuer + "/api" }

    /// Runs `body` with TIL live (`settings` added) and notes-api caching answers for
    /// `cacheSeconds`; stops notes-api afterwards, showing its log when `failed` says so.
    static func run(
        cacheSeconds: Int, settings: [String: String] = [:], failed: @escaping () -> Bool, _ body: (NotesAPIHarness) async throws -> Void
    ) async throws {
        let port = try ServerProcess.freePort()
        let resource = "http://127.0.0.1:\(port)"
        let tilSettings = settings.merging(["RESOURCES": "\(resource)=notes:read notes:write"]) { $1 }
        try await withTestApp(.live, settings: tilSettings) { app in
            let issuer = try await AuthorizationFlowTests.issuer(app)
            let notesClient = try await app.oauthClient([
                "client_name": "Notes API", "grant_types": ["client_credentials"], "redirect_uris": [String](),
                "scope": "notes:read notes:write",
            ])
            let environment = [
                "NOTES_ISSUER": issuer, "NOTES_PORT": String(port), "NOTES_CLIENT_ID": notesClient.id,
                "NOTES_CLIENT_SECRET": try XCTUnwrap(notesClient.secret), "NOTES_CACHE_SECONDS": String(cacheSeconds),
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ]
            let notes = try ServerProcess(executable: "notes-api", environment: environment, port: port)
            do {
                try await notes.waitUntilHealthy(path: "/.well-known/oauth-protected-resource")
                try await body(NotesAPIHarness(app: app, notes: notes, resource: resource, issuer: issuer, notesClient: notesClient))
            } catch {
                print("notes-api output:\n\(notes.output)")
                await notes.stop()
                throw error
            }
            if failed() { print("notes-api output:\n\(notes.output)") }
            await notes.stop()
        }
    }

    /// `GET /notes` at the notes API with `token`.
    func listNotes(_ token: String) async throws -> TestResponse {
        try await notes.client.send(.get, "/notes", auth: .bearer(token))
    }

    /// `POST /notes` at the notes API with `token`.
    func addNote(_ text: String, _ token: String) async throws -> TestResponse {
        try await notes.client.send(.post, "/notes", json: ["text": text], auth: .bearer(token))
    }

    /// A `client_credentials` token of the notes API's own client, for the notes resource.
    func clientToken(scope: String = "notes:read") async throws -> String {
        let answer = try await app.client.postForm(
            "/oauth/token", [("grant_type", "client_credentials"), ("scope", scope), ("resource", resource)], auth: notesClient.basic)
        XCTAssertEqual(answer.status.code, 200, answer.bodyString)
        return try XCTUnwrap(try answer.jsonObject()["access_token"] as? String)
    }

    /// Fails unless `response` is the notes API's 401 `invalid_token` with its challenge.
    func assertInvalidToken(_ response: TestResponse, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status.code, 401, "\(message): \(response.bodyString)", file: file, line: line)
        let challenge = response.headers["WWW-Authenticate"] ?? ""
        XCTAssertTrue(
            challenge.hasPrefix(#"Bearer realm="notes", error="invalid_token""#), "\(message): \(challenge)", file: file, line: line)
        assertNamesMetadata(challenge, message, file: file, line: line)
    }

    /// Fails unless `challenge` names the notes API's RFC 9728 metadata.
    func assertNamesMetadata(_ challenge: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let metadata = #"resource_metadata="\#(resource)/.well-known/oauth-protected-resource""#
        XCTAssertTrue(challenge.hasSuffix(metadata), "\(message): \(challenge)", file: file, line: line)
    }
}
