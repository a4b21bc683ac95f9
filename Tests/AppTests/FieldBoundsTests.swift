import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// Every bound the document gives a request-body string, sent through the real app: the bound
/// and the value one inside it are accepted, the value one past it is exactly a 400 whose
/// reason names the field. The limits live once in Swift (`AcronymRequest.shortMaxBytes`,
/// `UsernameRules`, `PasswordRules`...) and once in openapi.json; this is what holds them
/// together. Bounds in UTF-8 bytes (`x-max-utf8-bytes`) are also sent in two-byte characters.
final class FieldBoundsTests: XCTestCase {
    func testEveryDocumentedBoundIsTheOneTheCodeEnforces() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            var probed: Set<String> = []
            for operation in try contract.documentedOperations() {
                for field in try contract.boundedFields(of: operation) {
                    for probe in field.bounds.probes {
                        let fixture = try await OperationFixture.make(on: app)
                        let response = try await fixture.send(
                            operation, in: contract, to: app.client, bearer: fixture.session.value,
                            overriding: [field.name: .string(probe.text)])
                        let label = "\(operation) '\(field.name)' at \(probe.label) (\(probe.text.utf8.count) bytes)"
                        if probe.valid {
                            XCTAssertLessThan(response.status.code, 300, "\(label) refused: \(response.bodyString)")
                        } else {
                            XCTAssertEqual(response.status.code, 400, "\(label) accepted: \(response.bodyString)")
                            let reason = (try? response.decode(ErrorAnswer.self))?.reason ?? ""
                            XCTAssertTrue(reason.contains("'\(field.name)'"), "\(label): the reason names another field: \(reason)")
                        }
                    }
                    probed.insert("\(operation) \(field.name)")
                }
            }
            // What the document bounds today; a field it adds is probed without changing this test.
            let known = [
                "POST /api/acronyms short", "POST /api/acronyms long", "POST /api/categories name", "POST /api/users name",
                "POST /api/users username", "POST /api/users password", "PUT /api/users/me/password newPassword",
                "POST /api/users email", "PUT /api/users/me/email email",
            ]
            XCTAssertEqual(Set(known).subtracting(probed), [], "bounds the document no longer gives")
        }
    }
}
