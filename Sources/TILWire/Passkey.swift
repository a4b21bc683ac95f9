public import Foundation

/// One passkey as `GET /api/users/me/passkeys` lists it: never its public key or counter.
/// `id` is the server's (for rename and removal); `credentialId` is the authenticator's, in
/// base64url, as the browser shows it.
public struct PasskeySummary: Codable, Sendable, Hashable {
    public var id: UUID
    public var credentialId: String
    public var name: String
    @WireDate public var createdAt: Date
    public var lastUsedAt: Date?
    /// True when the authenticator said the passkey is backed up (synced, e.g. to a cloud keychain).
    public var backedUp: Bool

    public init(id: UUID, credentialId: String, name: String, createdAt: Date, lastUsedAt: Date?, backedUp: Bool) {
        self.id = id
        self.credentialId = credentialId
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backedUp = backedUp
    }

    private enum CodingKeys: String, CodingKey { case id, credentialId, name, createdAt, lastUsedAt, backedUp }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        credentialId = try container.decode(String.self, forKey: .credentialId)
        name = try container.decode(String.self, forKey: .name)
        _createdAt = try container.decode(WireDate.self, forKey: .createdAt)
        lastUsedAt = try container.decodeIfPresent(WireDate.self, forKey: .lastUsedAt)?.wrappedValue
        backedUp = try container.decode(Bool.self, forKey: .backedUp)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(credentialId, forKey: .credentialId)
        try container.encode(name, forKey: .name)
        try container.encode(_createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt.map(WireDate.init), forKey: .lastUsedAt)
        try container.encode(backedUp, forKey: .backedUp)
    }
}

/// The body of `PATCH /api/users/me/passkeys/:id`.
public struct PasskeyRenameRequest: Codable, Sendable, Hashable {
    public var name: String

    public init(name: String) { self.name = name }
}
