import CLibPQ
import Glibc

/// One libpq connection and its prepared-statement cache.
///
/// Not thread-safe, and not meant to be: a `PooledConnection` creates, uses and closes it on
/// its own dedicated thread only, where blocking in libpq harms nobody.
final class PostgresConnection {
    private let handle: OpaquePointer
    private var prepared: [String: String] = [:]
    /// False behind a transaction-mode pooler: statements go unnamed (`PQexecParams`).
    private let cachesStatements: Bool

    init(configuration: PostgresConfiguration) throws {
        cachesStatements = configuration.statementCache
        let parameters = configuration.libpqParameters
        let keywords: [UnsafeMutablePointer<CChar>?] = parameters.map { strdup($0.0) }
        let values: [UnsafeMutablePointer<CChar>?] = parameters.map { strdup($0.1) }
        defer { (keywords + values).forEach { free($0) } }
        let keyPointers: [UnsafePointer<CChar>?] = keywords.map { $0.map { UnsafePointer($0) } } + [nil]
        let valuePointers: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } } + [nil]
        let handle = keyPointers.withUnsafeBufferPointer { keys in
            valuePointers.withUnsafeBufferPointer { vals in
                PQconnectdbParams(keys.baseAddress, vals.baseAddress, 0)
            }
        }
        guard let handle else {
            throw PostgresError(.connectionFailed, message: "Cannot connect to \(configuration.endpointDescription): out of memory.")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines
            PQfinish(handle)
            throw PostgresError(.connectionFailed, message: "Cannot connect to \(configuration.endpointDescription): \(reason)")
        }
        // Notices ("table exists, skipping") are not errors; keep them off stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.handle = handle
    }

    deinit { PQfinish(handle) }

    /// False once the server went away; such a connection is discarded, never reused.
    var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs a parameterised statement through a cached prepared statement, or as one unnamed
    /// statement (parse, bind, execute in one round trip) when the cache is off.
    func query(_ query: PostgresQuery) throws -> PostgresResult {
        let name = cachesStatements ? try preparedName(for: query) : nil
        let values: [UnsafeMutablePointer<CChar>?] = query.binds.map { bind in bind.text.flatMap { strdup($0) } }
        defer { values.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } }
        let result = pointers.withUnsafeBufferPointer { pointers in
            guard let name else {
                return query.binds.map { Oid($0.type.rawValue) }.withUnsafeBufferPointer {
                    PQexecParams(handle, query.sql, Int32(pointers.count), $0.baseAddress, pointers.baseAddress, nil, nil, 0)
                }
            }
            return PQexecPrepared(handle, name, Int32(pointers.count), pointers.baseAddress, nil, nil, 0)
        }
        return try consume(result)
    }

    /// Runs SQL text without parameters (migrations, BEGIN/COMMIT); may hold several statements.
    func simpleQuery(_ sql: String) throws {
        _ = try consume(PQexec(handle, sql))
    }

    private func preparedName(for query: PostgresQuery) throws -> String {
        if let name = prepared[query.sql] { return name }
        let name = "s\(prepared.count + 1)"
        let types = query.binds.map { Oid($0.type.rawValue) }
        let result = types.withUnsafeBufferPointer { PQprepare(handle, name, query.sql, Int32(types.count), $0.baseAddress) }
        _ = try consume(result)
        prepared[query.sql] = name
        return name
    }

    /// Reads and frees a result: rows for a query, the affected count for a command, or an error.
    private func consume(_ result: OpaquePointer?) throws -> PostgresResult {
        guard let result else { throw brokenOrError(nil) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return PostgresResult(rows: [], affectedRows: Int(String(cString: PQcmdTuples(result))) ?? 0)
        case PGRES_TUPLES_OK:
            return PostgresResult(rows: Self.rows(of: result), affectedRows: Int(PQntuples(result)))
        default:
            throw brokenOrError(result)
        }
    }

    private func brokenOrError(_ result: OpaquePointer?) -> PostgresError {
        let field = { (code: UInt8) -> String? in
            guard let result, let value = PQresultErrorField(result, Int32(code)) else { return nil }
            return String(cString: value)
        }
        if !isUsable {
            return PostgresError(.closed, message: "Connection lost: \(String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines)")
        }
        let message = field(UInt8(ascii: "M")) ?? String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines
        return PostgresError(.server, sqlState: field(UInt8(ascii: "C")).map(SQLState.init), message: message)
    }

    private static func rows(of result: OpaquePointer) -> [PostgresRow] {
        let fieldCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        let columns = PostgresColumns(
            names: (0..<fieldCount).map { String(cString: PQfname(result, Int32($0))) },
            typeNames: (0..<fieldCount).map { "oid \(PQftype(result, Int32($0)))" })
        var rows: [PostgresRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [String?] = []
            values.reserveCapacity(fieldCount)
            for field in 0..<Int32(fieldCount) {
                values.append(PQgetisnull(result, row, field) == 1 ? nil : String(cString: PQgetvalue(result, row, field)))
            }
            rows.append(PostgresRow(columns: columns, values: values))
        }
        return rows
    }
}

/// What a statement returned.
struct PostgresResult: Sendable {
    var rows: [PostgresRow]
    var affectedRows: Int
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == " " { text.removeLast() }
        return text
    }
}
