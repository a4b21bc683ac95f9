import CLibPQ

/// What a statement returned: its rows (text values) or, for a command, the rows it affected.
struct PostgresResult: Sendable {
    var rows: [PostgresRow]
    var affectedRows: Int

    static let empty = PostgresResult(rows: [], affectedRows: 0)

    /// Copies a successful libpq result out (the caller frees it); nil for an error result.
    init?(reading result: OpaquePointer) {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            self.init(rows: [], affectedRows: Int(String(cString: PQcmdTuples(result))) ?? 0)
        case PGRES_TUPLES_OK:
            self.init(rows: Self.rows(of: result), affectedRows: Int(PQntuples(result)))
        default:
            return nil
        }
    }

    init(rows: [PostgresRow], affectedRows: Int) {
        self.rows = rows
        self.affectedRows = affectedRows
    }

    private static func rows(of result: OpaquePointer) -> [PostgresRow] {
        let fieldCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        let columns = PostgresColumns(
            names: (0..<fieldCount).map { String(cString: PQfname(result, Int32($0))) },
            types: (0..<fieldCount).map { PostgresType(rawValue: PQftype(result, Int32($0))) })
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
