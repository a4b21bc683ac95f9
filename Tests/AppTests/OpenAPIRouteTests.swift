import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// The document cannot drift from the code: its operations are exactly the live route table,
/// both ways, and it is well-formed enough for tools to load.
final class OpenAPIRouteTests: XCTestCase {
    func testDocumentedOperationsAreExactlyTheLiveRoutes() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            let live = Set(app.app.routes.map { "\($0.method.rawValue) \($0.path.string)" })
            XCTAssertEqual(live.subtracting(contract.operations).sorted(), [], "routes missing from the OpenAPI document")
            XCTAssertEqual(contract.operations.subtracting(live).sorted(), [], "documented operations with no route")
            XCTAssertEqual(live.count, app.app.routes.count, "a route registered twice")
        }
    }

    func testTheDocumentIsWellFormed() async throws {
        try await withTestApp { app in
            let contract = try await OpenAPIContract.served(by: app)
            XCTAssertEqual(contract.document["openapi"], .string("3.1.0"))
            XCTAssertEqual(try JSONValue.parse(OpenAPIDocument.json()), contract.document)
            var refs: [String] = []
            collect(contract.document, refs: &refs)
            for ref in Set(refs) { XCTAssertNotNil(contract.validator.resolve(ref), "unresolvable \(ref)") }
            var operationIDs: [String] = []
            if case .object(let paths)? = contract.document["paths"] {
                for case .object(let methods) in paths.values {
                    operationIDs += methods.values.compactMap { $0["operationId"]?.string }
                }
            }
            XCTAssertEqual(operationIDs.count, Set(operationIDs).count, "duplicate operationId")
            XCTAssertEqual(operationIDs.count, contract.operations.count, "an operation without an operationId")
            for case .object(let schema)? in [contract.document["components"]?["schemas"]] {
                for (name, body) in schema {
                    XCTAssertTrue(contract.validator.errors(of: .null, against: body).allSatisfy { !$0.contains("does not know") }, name)
                }
            }
        }
    }

    private func collect(_ value: JSONValue, refs: inout [String]) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if key == "$ref", let ref = member.string { refs.append(ref) }
                collect(member, refs: &refs)
            }
        case .array(let elements): elements.forEach { collect($0, refs: &refs) }
        default: break
        }
    }
}
