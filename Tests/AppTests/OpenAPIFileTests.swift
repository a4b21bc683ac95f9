import AppTesting
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// The contract is one checked-in file, `Sources/App/OpenAPI/openapi.json`: valid JSON, an
/// OpenAPI 3.1 document that tools load, and served byte for byte as it is in the repository.
final class OpenAPIFileTests: XCTestCase {
    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/App/OpenAPI/openapi.json")

    func testTheServerServesTheFileByteForByte() async throws {
        let file = Array(try Data(contentsOf: Self.file))
        XCTAssertEqual(OpenAPIDocument.bytes, file, "the embedded document differs from openapi.json: rebuild")
        try await withTestApp { app in
            let response = try await app.client.send(.get, "/openapi.json")
            XCTAssertEqual(response.status.code, 200)
            XCTAssertEqual(response.headers["Content-Type"], "application/json")
            XCTAssertEqual(response.body, file)
        }
    }

    /// Strict JSON (duplicate keys and trailing commas refused by the parser), UTF-8 without a
    /// byte order mark, LF line endings, and pretty-printed so that a diff reads line by line.
    func testTheFileIsValidJSON() throws {
        let data = try Data(contentsOf: Self.file)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: data), "openapi.json is not valid JSON")
        XCTAssertNotNil(String(data: data, encoding: .utf8), "openapi.json is not UTF-8")
        XCTAssertFalse(data.starts(with: [0xEF, 0xBB, 0xBF]), "openapi.json starts with a byte order mark")
        XCTAssertFalse(data.contains(UInt8(ascii: "\r")), "openapi.json has CR line endings")
        XCTAssertEqual(data.last, UInt8(ascii: "\n"), "openapi.json does not end with a line break")
        XCTAssertGreaterThan(data.filter { $0 == UInt8(ascii: "\n") }.count, 100, "openapi.json is not pretty-printed")
    }

    /// The structure OpenAPI 3.1 requires (§4.8): `openapi` 3.1.x, `info` with a title and a
    /// version, paths starting with `/`, every operation with an `operationId` (unique) and
    /// `responses`, every `$ref` resolving (a Reference Object with nothing else than a
    /// summary and a description beside it), every path parameter declared, every security
    /// requirement naming a defined scheme (`documentedOperations` reads them), and schemas
    /// only in the JSON Schema the tests can validate.
    func testTheFileIsAnOpenAPI31Document() throws {
        let contract = OpenAPIContract(document: try JSONValue.parse(Array(try Data(contentsOf: Self.file))))
        let document = contract.document
        XCTAssertNotNil(document["openapi"]?.string?.range(of: #"^3\.1\.\d+$"#, options: .regularExpression), "openapi: 3.1.x")
        XCTAssertNotNil(document["info"]?["title"]?.string, "info.title")
        XCTAssertNotNil(document["info"]?["version"]?.string, "info.version")
        let operations = try contract.documentedOperations()
        XCTAssertFalse(operations.isEmpty)
        var operationIDs: [String] = []
        for operation in operations {
            XCTAssertTrue(operation.path.hasPrefix("/"), "\(operation)")
            if case .object(let responses)? = operation.spec["responses"] { XCTAssertFalse(responses.isEmpty, "\(operation)") } else {
                XCTFail("\(operation): no responses")
            }
            if let id = operation.spec["operationId"]?.string { operationIDs.append(id) } else { XCTFail("\(operation): no operationId") }
            let declared = Set(operation.parameters.filter { $0["in"] == .string("path") }.compactMap { $0["name"]?.string })
            let inPath = Set(operation.path.split(separator: "{").dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) })
            XCTAssertEqual(declared, inPath, "\(operation): path parameters")
        }
        XCTAssertEqual(operationIDs.count, Set(operationIDs).count, "duplicate operationId")
        var refs: [(ref: String, siblings: Set<String>)] = []
        collect(document, refs: &refs)
        for (ref, siblings) in refs {
            XCTAssertNotNil(contract.validator.resolve(ref), "unresolvable \(ref)")
            // A Reference Object (anything but a schema) takes only a summary and a description
            // beside `$ref` (§4.8.23): `"required": true` goes in the header it points to.
            if !ref.hasPrefix("#/components/schemas/") {
                XCTAssertEqual(siblings.subtracting(["$ref", "summary", "description"]), [], "beside \(ref)")
            }
        }
        if case .object(let schemas)? = document["components"]?["schemas"] {
            for (name, schema) in schemas {
                XCTAssertTrue(contract.validator.errors(of: .null, against: schema).allSatisfy { !$0.contains("does not know") }, name)
            }
        }
    }

    /// The official OpenAPI 3.1 schema, through openapi-spec-validator where it is installed
    /// (this machine's Python has it); the checks above hold everywhere.
    func testOpenAPISpecValidatorAcceptsTheFile() throws {
        guard let python = ExternalTool("python3") else { throw XCTSkip("python3 is not installed") }
        let probe = try python.run(["-c", "import openapi_spec_validator"])
        guard probe.status == 0 else { throw XCTSkip("openapi-spec-validator is not installed") }
        let result = try python.run(["-m", "openapi_spec_validator", Self.file.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.hasSuffix(": OK\n"), result.output)
    }

    private func collect(_ value: JSONValue, refs: inout [(ref: String, siblings: Set<String>)]) {
        switch value {
        case .object(let members):
            if let ref = members["$ref"]?.string { refs.append((ref, Set(members.keys))) }
            for member in members.values { collect(member, refs: &refs) }
        case .array(let elements): elements.forEach { collect($0, refs: &refs) }
        default: break
        }
    }
}
