import Foundation

/// What TIL's introspection endpoint says of a token (RFC 7662 §2.2), the fields this API
/// uses. An inactive answer is `{"active": false}` and nothing else.
struct IntrospectionResult: Decodable, Sendable, Equatable {
    let active: Bool
    /// Space-separated scopes.
    let scope: String?
    /// The resources the token is for: RFC 7662 allows one string or an array.
    let audiences: [String]
    /// Expiry, seconds since 1970.
    let exp: Int64?
    /// The user; absent for a client's own token (`client_credentials`).
    let sub: String?
    let username: String?
    let clientID: String?

    var scopes: Set<Substring> { Set((scope ?? "").split(separator: " ")) }
    var expiry: Date? { exp.map { Date(timeIntervalSince1970: TimeInterval($0)) } }

    private enum CodingKeys: String, CodingKey {
        case active, scope, aud, exp, sub, username
        case clientID = "client_id"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        active = try container.decode(Bool.self, forKey: .active)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        if let one = try? container.decodeIfPresent(String.self, forKey: .aud) {
            audiences = [one]
        } else {
            audiences = try container.decodeIfPresent([String].self, forKey: .aud) ?? []
        }
        exp = try container.decodeIfPresent(Int64.self, forKey: .exp)
        sub = try container.decodeIfPresent(String.self, forKey: .sub)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
    }
}
