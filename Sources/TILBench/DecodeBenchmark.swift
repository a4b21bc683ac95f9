import Foundation
import Logging
import Postgres

/// Throwaway: column decoding vs RowDecoder on the same 100 acronym-shaped rows.
func runDecodeBenchmark(url: String, mode: String) async throws {
    struct Row: Decodable { var id: UUID; var short: String; var long: String; var userID: UUID }
    let db = PostgresClient(configuration: try PostgresConfiguration(url: url), logger: .init(label: "b"))
    let rows = try await db.query("""
        SELECT gen_random_uuid() AS id, 'ABC' || g AS short, 'A long form ' || g AS long, gen_random_uuid() AS "userID"
        FROM generate_series(1, 100) g
        """)
    var sink = 0
    for _ in 0..<5000 {
        for row in rows {
            switch mode {
            case "columns":
                let r = Row(id: try row.decode(column: "id", as: UUID.self), short: try row.decode(column: "short", as: String.self),
                            long: try row.decode(column: "long", as: String.self), userID: try row.decode(column: "userID", as: UUID.self))
                sink &+= r.short.utf8.count
            case "decoder": sink &+= try row.decode(Row.self).short.utf8.count
            default: sink &+= 1
            }
        }
    }
    print(mode, sink)
    await db.shutdown()
}
