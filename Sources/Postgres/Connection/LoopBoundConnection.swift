import Sockets

/// A connection as the Sendable `PostgresTransaction` carries it: the connection is confined
/// to its loop (not Sendable), so this only lends it out on that loop.
///
/// `@unchecked Sendable` is sound because `connection` is private and handed out only by
/// `withConnection`, which runs `body` on `loop` (hopping there first when called from another
/// thread); off the loop, the reference is only copied (atomic retain/release), never used. The
/// connection cannot be deinitialised from another thread while it still has state to tear
/// down: until `close()` (on the loop) it is registered with its loop, which holds it.
struct LoopBoundConnection: @unchecked Sendable {
    private let connection: PostgresConnection

    init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Runs `body` with the connection on its loop: directly when the caller is there (the
    /// usual case), else after a hop (a transaction body that wandered off, which it should not).
    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let loop = connection.loop
        if loop.inEventLoop { return try await body(connection) }
        return try await withTaskExecutorPreference(loop) { try await body(connection) }
    }
}
