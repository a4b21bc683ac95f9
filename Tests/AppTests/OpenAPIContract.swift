import AppTesting
import Foundation
import Web
import WebTesting
import XCTest

/// The OpenAPI document as the drift tests read it: the operations it names, and whether a real
/// answer is one it allows (status listed, body valid against its schema, required headers
/// present and well-formed).
struct OpenAPIContract {
    let document: JSONValue
    var validator: JSONSchemaValidator { JSONSchemaValidator(document: document) }

    /// The document as the server serves it at `GET /openapi.json`.
    static func served(by app: TestApp) async throws -> OpenAPIContract {
        let response = try await app.client.send(.get, "/openapi.json")
        XCTAssertEqual(response.status.code, 200)
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
        return OpenAPIContract(document: try JSONValue.parse(response.body))
    }

    /// Every documented operation as `METHOD /path`, with `{name}` written `:name` as routes are.
    func operationNames() throws -> Set<String> {
        Set(try documentedOperations().map { "\($0.method.rawValue) \($0.routePath)" })
    }

    /// Fails the test unless `response` is an answer the document allows for `method path`
    /// (`path` as documented, e.g. `/api/acronyms/{acronymID}`).
    func check(_ response: TestResponse, _ method: HTTPMethod, _ path: String, file: StaticString = #filePath, line: UInt = #line) {
        let label = "\(method.rawValue) \(path) → \(response.status.code)"
        guard let operation = document["paths"]?[path]?[method.rawValue.lowercased()] else {
            return XCTFail("\(label): not documented", file: file, line: line)
        }
        guard var answer = operation["responses"]?[String(response.status.code)] else {
            return XCTFail("\(label): status not documented (\(response.bodyString.prefix(200)))", file: file, line: line)
        }
        if let ref = answer["$ref"]?.string, let target = validator.resolve(ref) { answer = target }
        if let schema = answer["content"]?["application/json"]?["schema"] {
            XCTAssertTrue(response.headers["Content-Type"]?.hasPrefix("application/json") == true, "\(label): content type", file: file, line: line)
            do {
                let errors = validator.errors(of: try JSONValue.parse(response.body), against: schema)
                XCTAssertTrue(errors.isEmpty, "\(label): \(errors.joined(separator: "; "))", file: file, line: line)
            } catch {
                XCTFail("\(label): body is not JSON: \(response.bodyString.prefix(200))", file: file, line: line)
            }
        } else {
            XCTAssertTrue(response.body.isEmpty, "\(label): documented without a body, got \(response.bodyString.prefix(100))", file: file, line: line)
        }
        guard case .object(let headers)? = answer["headers"] else { return }
        for (name, declared) in headers {
            let header = declared["$ref"]?.string.flatMap(validator.resolve) ?? declared
            guard let value = response.headers[name] else {
                XCTAssertNotEqual(header["required"], .bool(true), "\(label): required header \(name) missing", file: file, line: line)
                continue
            }
            if let schema = header["schema"] {
                let errors = validator.errors(of: .string(value), against: schema, at: name)
                XCTAssertTrue(errors.isEmpty, "\(label): \(errors.joined(separator: "; "))", file: file, line: line)
            }
        }
    }
}
