/// Credentials for this process only: gone when it ends. Clients that share one instance share
/// its tokens, and refresh them one at a time.
public actor MemoryCredentialStore: CredentialStore {
    private var value: StoredCredentials
    private let lock = AsyncLock()

    public init(_ value: StoredCredentials = StoredCredentials()) {
        self.value = value
    }

    public func load() -> StoredCredentials { value }

    public func update<R: Sendable>(_ change: @Sendable (inout StoredCredentials) async throws -> R) async throws -> R {
        try await lock.withLock {
            var copy = await self.value
            let result = try await change(&copy)
            await self.set(copy)
            return result
        }
    }

    private func set(_ value: StoredCredentials) {
        self.value = value
    }
}
