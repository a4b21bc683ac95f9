import Foundation
import Web

/// One operation of the OpenAPI document, as the generic contract tests drive it: the drift
/// tests, the scope tests and the bounds tests all start from the document, never from a table.
struct DocumentedOperation: CustomStringConvertible {
    let method: HTTPMethod
    /// As documented: `/api/acronyms/{acronymID}`.
    let path: String
    /// The operation object.
    let spec: JSONValue
    /// Its parameters and its path's, each `$ref` resolved.
    let parameters: [JSONValue]
    /// Who may call it, as its `security` (or the document's) says.
    let access: RouteAccess

    /// As routes write it: `/api/acronyms/:acronymID`.
    var routePath: String { path.replacingOccurrences(of: "{", with: ":").replacingOccurrences(of: "}", with: "") }

    var description: String { "\(method.rawValue) \(path)" }

    /// The scopes a bearer token needs for it; empty for any token, or none at all.
    var bearerScopes: [String] {
        if case .authenticated("bearer", let scopes) = access { return scopes }
        return []
    }

    var needsBearerToken: Bool {
        if case .authenticated("bearer", _) = access { return true }
        return false
    }
}

/// A document these tests cannot read: they say what to teach them rather than guess.
struct UnreadableContract: Error, CustomStringConvertible {
    let description: String
}

extension OpenAPIContract {
    private static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every operation, ordered by path, then method.
    func documentedOperations() throws -> [DocumentedOperation] {
        guard case .object(let paths)? = document["paths"] else { throw UnreadableContract(description: "no paths") }
        var operations: [DocumentedOperation] = []
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            guard case .object(let members) = item else { throw UnreadableContract(description: "\(path) is not an object") }
            for (method, spec) in members.sorted(by: { $0.key < $1.key }) where Self.methods.contains(method) {
                let parameters = ((item["parameters"]?.array ?? []) + (spec["parameters"]?.array ?? [])).map { parameter in
                    parameter["$ref"]?.string.flatMap(validator.resolve) ?? parameter
                }
                let label = "\(method.uppercased()) \(path)"
                operations.append(DocumentedOperation(
                    method: HTTPMethod(rawValue: method.uppercased()), path: path, spec: spec, parameters: parameters,
                    access: try access(spec["security"] ?? document["security"], of: label)))
            }
        }
        return operations
    }

    /// Every scope some operation needs that a login's `?scope=` grants: OpenID Connect's
    /// (userinfo's `openid`) come from an OAuth grant only, and have tests of their own.
    func documentedScopes() throws -> Set<String> {
        Set(try documentedOperations().flatMap(\.bearerScopes)).subtracting(["openid", "profile", "offline_access"])
    }

    /// No security requirement: public. One requirement naming one HTTP scheme (`bearerAuth`,
    /// `basicAuth`): that scheme (`bearer`, `basic`) with the scopes listed. Anything richer
    /// (alternatives, several schemes at once) is for these tests to learn when the API needs it.
    private func access(_ security: JSONValue?, of label: String) throws -> RouteAccess {
        guard let requirements = (security ?? .array([])).array else {
            throw UnreadableContract(description: "\(label): security is not an array")
        }
        guard let requirement = requirements.first else { return .public }
        guard requirements.count == 1, case .object(let schemes) = requirement, schemes.count == 1,
              let (name, scopes) = schemes.first, let scopeNames = scopes.array?.compactMap(\.string)
        else { throw UnreadableContract(description: "\(label): the tests read one requirement of one scheme") }
        let scheme = document["components"]?["securitySchemes"]?[name]
        guard scheme?["type"] == .string("http"), let httpScheme = scheme?["scheme"]?.string else {
            throw UnreadableContract(description: "\(label): \(name) is not an HTTP security scheme")
        }
        return .authenticated(scheme: httpScheme.lowercased(), scopes: scopeNames)
    }
}
