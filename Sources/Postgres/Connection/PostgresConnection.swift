import CLibPQ
import Glibc
import Sockets

/// One libpq connection, driven without blocking by the event loop it lives on.
///
/// libpq runs non-blocking (`PQconnectPoll`, `PQsendQueryPrepared`), the loop watches the
/// socket (level-triggered), and the caller resumes on the loop thread once `PQgetResult`
/// holds the whole answer: a request that reads the database never leaves its thread.
/// Statement names and plan freshness are `StatementCache`'s; its lease's cost is `lease`.
///
/// Loop-confined, so not Sendable: opened, used and closed on `loop` (checked by precondition);
/// its pool lives there too, and a `PostgresTransaction` lends it out only there (`LoopBound`).
final class PostgresConnection: EventHandler {
    private enum Phase { case connecting, idle, busy, closed }

    let loop: EventLoop
    /// The libpq connection; nil once closed.
    private(set) var handle: OpaquePointer?
    private let endpoint: String
    private var socket: Int32 = -1
    private var phase = Phase.connecting
    private var writeWanted = false
    private var statements = StatementCache()
    private var opening: CheckedContinuation<Void, any Error>?
    private var answering: CheckedContinuation<PostgresResult, any Error>?
    private var outcome: Result<PostgresResult, PostgresError>?
    /// A BEGIN waiting to travel with the next statement (pipeline mode: one round trip).
    private var beginPending = false
    /// A `DISCARD PLANS` waiting to travel with the next statement (`StatementCache`).
    private var replanPending = false
    /// The answer being read belongs to a pipeline, which ends with a sync result.
    private var pipelined = false
    /// The current lease's cost (set by the pool at hand-out, read at take-back), and when the
    /// statement in flight went out: its time ends once its answer is complete.
    var lease = Lease()
    private var sentAt: ContinuousClock.Instant?

    /// Opens a connection on `loop` (the caller runs there), failing after the connect timeout.
    static func open(_ configuration: PostgresConfiguration, on loop: EventLoop) async throws -> PostgresConnection {
        let connection = try PostgresConnection(configuration, loop: loop)
        try await connection.finishOpening(timeout: configuration.connectTimeout)
        return connection
    }

    private init(_ configuration: PostgresConfiguration, loop: EventLoop) throws {
        precondition(loop.inEventLoop)
        self.loop = loop
        endpoint = configuration.endpointDescription
        let parameters = configuration.libpqParameters
        let keywords = CStrings(parameters.map(\.0) + [nil])
        let values = CStrings(parameters.map(\.1) + [nil])
        defer { keywords.free(); values.free() }
        let started = PQconnectStartParams(keywords.pointers, values.pointers, 0)
        guard let started else {
            throw PostgresError(.connectionFailed, message: "Cannot connect to \(endpoint): out of memory.")
        }
        handle = started
        guard PQstatus(started) != CONNECTION_BAD, PQsetnonblocking(started, 1) == 0 else {
            let error = PostgresError(.connectionFailed, message: "Cannot connect to \(endpoint): \(libpqMessage)")
            close()
            throw error
        }
        // Notices ("table exists, skipping") are not errors; keep them off stderr.
        PQsetNoticeProcessor(started, { _, _ in }, nil)
    }

    deinit { if let handle { PQfinish(handle) } }

    /// Idle and connected: safe to hand to the next caller.
    var isUsable: Bool {
        guard phase == .idle, let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    // MARK: Statements

    /// Runs a parameterised statement: through a named prepared statement kept per connection
    /// (parsed once), or as an unnamed one when `cached` is false (poolers in transaction mode).
    func query(_ query: PostgresQuery, cached: Bool) async throws -> PostgresResult {
        let parameters = CStrings(query.binds)
        defer { parameters.free() }
        guard cached else {
            let types = query.binds.map { Oid($0.type.rawValue) }
            return try await send { handle in
                PQsendQueryParams(handle, query.sql, parameters.count, types, parameters.pointers, nil, nil, 0)
            }
        }
        let name = try await statementName(for: query)
        if statements.countStatement() { replanPending = true }
        return try await send { handle in
            PQsendQueryPrepared(handle, name, parameters.count, parameters.pointers, nil, nil, 0)
        }
    }

    /// SQL text without parameters (migrations); may hold several statements.
    func simpleQuery(_ sql: String) async throws -> PostgresResult {
        try await send(pipelinable: false) { PQsendQuery($0, sql) }
    }

    /// One parameterless statement (COMMIT, ROLLBACK) in the extended protocol, so that it can
    /// share a round trip with a pending BEGIN.
    private func command(_ sql: String) async throws {
        _ = try await send { PQsendQueryParams($0, sql, 0, nil, nil, nil, nil, 0) }
    }

    /// Ends the transaction with COMMIT or ROLLBACK; nothing at all when no statement ran in it.
    func endTransaction(_ sql: String) async throws {
        if beginPending {
            beginPending = false
            return
        }
        try await command(sql)
    }

    /// Opens a transaction without a round trip of its own: BEGIN goes out in one pipeline
    /// with the transaction's first statement.
    func beginWithNextStatement() {
        precondition(loop.inEventLoop)
        beginPending = true
    }

    private func statementName(for query: PostgresQuery) async throws -> String {
        if let name = statements.name(for: query.sql) { return name }
        let name = statements.nextName
        let types = query.binds.map { Oid($0.type.rawValue) }
        _ = try await send { PQsendPrepare($0, name, query.sql, Int32(types.count), types) }
        statements.add(query.sql, as: name)
        return name
    }

    /// Starts one statement with `start` (a `PQsend…` call) and suspends until its answer. A
    /// pending DISCARD PLANS and BEGIN go first, in the same pipeline when `start` may run in one.
    private func send(pipelinable: Bool = true, _ start: (OpaquePointer) -> Int32) async throws -> PostgresResult {
        precondition(loop.inEventLoop)
        guard phase == .idle, let handle else {
            var error = PostgresError(.closed, message: "The connection to \(endpoint) is closed.")
            error.neverSent = true
            throw error
        }
        if replanPending || beginPending {
            let prelude = [replanPending ? "DISCARD PLANS" : nil, beginPending ? "BEGIN" : nil].compactMap { $0 }
            (replanPending, beginPending) = (false, false)
            guard pipelinable else {
                for sql in prelude { try await command(sql) }
                return try await send(pipelinable: false, start)
            }
            guard PQenterPipelineMode(handle) == 1,
                prelude.allSatisfy({ PQsendQueryParams(handle, $0, 0, nil, nil, nil, nil, 0) == 1 })
            else { throw unsent() }
            pipelined = true
        }
        guard start(handle) == 1, !pipelined || PQpipelineSync(handle) == 1 else { throw unsent() }
        phase = .busy
        outcome = nil
        sentAt = .now
        return try await withCheckedThrowingContinuation { continuation in
            answering = continuation
            flush()
        }
    }

    // MARK: Events (loop thread)

    func handle(_ readiness: Readiness) {
        switch phase {
        case .connecting: continueOpening()
        case .idle, .busy:
            if readiness.contains(.writable) { flush() }
            if !readiness.isDisjoint(with: [.readable, .hangUp]) { readAnswer() }
        case .closed: break
        }
    }

    func tick(now: ContinuousClock.Instant) {}

    func loopStopping() {
        fail(PostgresError(.closed, message: "The event loop of the connection to \(endpoint) stopped."))
    }

    /// Stops watching the socket and ends the session; later statements fail with `.closed`.
    func close() {
        if socket >= 0 { loop.deregister(socket) }
        socket = -1
        phase = .closed
        if let handle { PQfinish(handle) }
        handle = nil
    }

    private func finishOpening(timeout: Duration) async throws {
        try await withCheckedThrowingContinuation { continuation in
            opening = continuation
            loop.schedule(at: .now + timeout) { [weak self] in
                guard let self, self.phase == .connecting else { return }
                self.fail(PostgresError(.connectionFailed, message: "Cannot connect to \(self.endpoint): timed out after \(timeout)."))
            }
            // libpq's protocol: start as if PQconnectPoll had asked to wait for writability.
            watch(readable: false, writable: true)
        }
    }

    private func continueOpening() {
        guard let handle else { return }
        switch PQconnectPoll(handle) {
        case PGRES_POLLING_READING: watch(readable: true, writable: false)
        case PGRES_POLLING_WRITING: watch(readable: false, writable: true)
        case PGRES_POLLING_OK:
            phase = .idle
            watch(readable: true, writable: false)
            opening?.resume()
            opening = nil
        default:
            fail(PostgresError(.connectionFailed, message: "Cannot connect to \(endpoint): \(libpqMessage)"))
        }
    }

    /// Sends what libpq buffered; watches for writability only while some is left.
    private func flush() {
        guard let handle else { return }
        switch PQflush(handle) {
        case 0: if writeWanted { writeWanted = false; watch(readable: true, writable: false) }
        case 1: if !writeWanted { writeWanted = true; watch(readable: true, writable: true) }
        default: fail(failure(of: nil))
        }
    }

    private func readAnswer() {
        guard let handle else { return }
        guard PQconsumeInput(handle) == 1 else { return fail(failure(of: nil)) }
        guard phase == .busy else {
            // Idle: the server only speaks up to say goodbye (a terminated backend).
            if PQstatus(handle) != CONNECTION_OK { fail(failure(of: nil)) }
            return
        }
        if writeWanted { flush() }
        while PQisBusy(handle) == 0 {
            guard let result = PQgetResult(handle) else {
                // In a pipeline, nil only ends one statement's results; the sync ends it all.
                if pipelined { continue }
                return finishAnswer()
            }
            if pipelined, PQresultStatus(result) == PGRES_PIPELINE_SYNC {
                PQclear(result)
                pipelined = false
                _ = PQexitPipelineMode(handle)
                return finishAnswer()
            }
            collect(result)
        }
    }

    /// Keeps the first error, else the last result (a multi-statement simple query).
    private func collect(_ result: OpaquePointer) {
        defer { PQclear(result) }
        if case .failure = outcome { return }
        outcome = PostgresResult(reading: result).map { .success($0) } ?? .failure(failure(of: result))
    }

    private func finishAnswer() {
        phase = .idle
        countStatementTime()
        let (answer, continuation) = (outcome ?? .success(.empty), answering)
        (outcome, answering) = (nil, nil)
        continuation?.resume(with: answer)
    }

    private func fail(_ error: PostgresError) {
        guard phase != .closed else { return }
        countStatementTime()
        close()
        opening?.resume(throwing: error)
        opening = nil
        answering?.resume(throwing: error)
        answering = nil
    }

    private func countStatementTime() {
        guard let sent = sentAt else { return }
        lease.inStatements += .now - sent
        lease.statements += 1
        sentAt = nil
    }

    /// Registers the socket, or changes what we wait for; follows libpq to a new socket.
    private func watch(readable: Bool, writable: Bool) {
        guard let handle else { return }
        let current = PQsocket(handle)
        do {
            if current != socket {
                if socket >= 0 { loop.deregister(socket) }
                socket = current
                try loop.register(current, readable: readable, writable: writable, handler: self)
            } else {
                try loop.setInterest(current, readable: readable, writable: writable)
            }
        } catch {
            fail(PostgresError(.closed, message: "Cannot watch the connection to \(endpoint): \(error)"))
        }
    }
}
