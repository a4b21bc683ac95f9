import Foundation

/// TIL's contract: the OpenAPI 3.1 document served at `GET /openapi.json`.
///
/// It lives in this folder as JSON, one fragment per area (`OpenAPIDocument+*.swift`), inside
/// Swift files so that the executable carries it — no resource bundle to ship beside the
/// binary. A piece several operations share verbatim is written once and interpolated
/// (`errorResponses(400, 503)`, a token pair's body). The fragments are merged once, at
/// start-up. Two tests keep it honest: its paths and methods must equal the live route table,
/// and real answers must validate against its schemas (`Tests/AppTests/OpenAPI*Tests.swift`);
/// `make fuzz-api` runs schemathesis on it.
enum OpenAPIDocument {
    static let fragments = [
        info, schemas, sessionPaths, accountPaths, userPaths, acronymReadPaths, acronymWritePaths, categoryPaths,
    ]

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// The whole document, as the JSON text the route serves (keys sorted, so it is stable).
    static func json() throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: try merged(), options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    /// The fragments merged into one object: objects merge member by member; any other
    /// member defined twice is a mistake.
    static func merged() throws -> [String: Any] {
        var document: [String: Any] = [:]
        for (index, fragment) in fragments.enumerated() {
            guard let object = try JSONSerialization.jsonObject(with: Data(fragment.utf8)) as? [String: Any] else {
                throw Invalid(description: "OpenAPI fragment \(index) is not a JSON object")
            }
            try merge(object, into: &document, at: "")
        }
        return document
    }

    private static func merge(_ source: [String: Any], into target: inout [String: Any], at path: String) throws {
        for (key, value) in source {
            switch (target[key], value) {
            case (nil, _):
                target[key] = value
            case (var existing as [String: Any], let addition as [String: Any]):
                try merge(addition, into: &existing, at: path + "/" + key)
                target[key] = existing
            default:
                throw Invalid(description: "OpenAPI member \(path)/\(key) is defined twice")
            }
        }
    }
}
