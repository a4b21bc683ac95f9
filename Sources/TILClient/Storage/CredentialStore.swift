/// Where a client keeps its tokens between calls (and, for the file store, between runs).
///
/// `update` is the one way to change them, and it is exclusive across everything that shares
/// the store — tasks, and for the file store processes: a refresh runs inside it, so the second
/// of two concurrent refreshers finds the new pair instead of spending the old refresh token
/// again (which the server would take for theft and end the session).
public protocol CredentialStore: Sendable {
    /// What is stored now (empty when nothing is).
    func load() async throws -> StoredCredentials

    /// Reads the stored value, lets `change` modify it, and writes it back if it changed —
    /// holding every other `update` off until done. When `change` throws, nothing is written.
    func update<R: Sendable>(_ change: @Sendable (inout StoredCredentials) async throws -> R) async throws -> R
}

extension CredentialStore {
    /// Forgets everything.
    public func clear() async throws {
        try await update { $0 = StoredCredentials() }
    }
}
