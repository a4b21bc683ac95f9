import Foundation
@testable import Postgres
import XCTest

final class QueryTests: XCTestCase {
    func testRoundTripOfEveryType() async throws {
        let db = try makeClient()
        let table = uniqueTable()
        try await db.simpleQuery("""
            CREATE TABLE \(table) (id uuid PRIMARY KEY, name text NOT NULL, count bigint NOT NULL, ratio float8 NOT NULL,
            flag bool NOT NULL, note text, created timestamptz NOT NULL, small int4, blob bytea)
            """)
        let id = UUID()
        let created = Date(timeIntervalSince1970: 1_700_000_000.123456)
        let nasty = "Robert'); DROP TABLE \(table); -- \"quoted\" \\ café 🎉 \u{1F600}"
        let note: String? = nil
        try await db.execute("""
            INSERT INTO \(unescaped: table) (id, name, count, ratio, flag, note, created, small, blob)
            VALUES (\(id), \(nasty), \(Int.max), \(-2.5), \(true), \(note), \(created), \(Int32(7)), \([UInt8]([0, 1, 255])))
            """)
        let rows = try await db.query("SELECT * FROM \(unescaped: table) WHERE id = \(id)")
        XCTAssertEqual(rows.count, 1)
        let row = rows[0]
        XCTAssertEqual(try row.decode(column: "id", as: UUID.self), id)
        XCTAssertEqual(try row.decode(column: "name", as: String.self), nasty)
        XCTAssertEqual(try row.decode(column: "count", as: Int.self), Int.max)
        XCTAssertEqual(try row.decode(column: "ratio", as: Double.self), -2.5)
        XCTAssertTrue(try row.decode(column: "flag", as: Bool.self))
        XCTAssertNil(try row.decode(column: "note", as: String?.self))
        let decoded = try row.decode(column: "created", as: Date.self)
        XCTAssertEqual(decoded.timeIntervalSince1970, created.timeIntervalSince1970, accuracy: 0.000001)
        XCTAssertEqual(try rows[0].decode(column: "small", as: Int32.self), 7)
        XCTAssertEqual(try rows[0].decode(column: "note", as: String?.self), nil)
        XCTAssertEqual(try rows[0].decode(column: "blob", as: String.self), "\\x0001ff")
        // The injection attempt was stored verbatim; the table is still there.
        let rowCount = try await db.query("SELECT count(*)::int AS n FROM \(unescaped: table)")[0].decode(column: "n", as: Int.self)
        XCTAssertEqual(rowCount, 1)
        try await db.simpleQuery("DROP TABLE \(table)")
        await db.shutdown()
    }

    func testVeryLongTextAndUnicode() async throws {
        let db = try makeClient()
        let long = String(repeating: "ü€𝄞", count: 100_000)
        let rows = try await db.query("SELECT \(long)::text AS value, length(\(long)::text) AS chars")
        XCTAssertEqual(try rows[0].decode(column: "value", as: String.self), long)
        XCTAssertEqual(try rows[0].decode(column: "chars", as: Int.self), 300_000)
        await db.shutdown()
    }

    func testDecodingErrorsNameTheColumn() async throws {
        let db = try makeClient()
        let rows = try await db.query("SELECT NULL::text AS missing, 'abc'::text AS word")
        XCTAssertThrowsError(try rows[0].decode(column: "missing", as: String.self)) { error in
            XCTAssertTrue("\(error)".contains("missing"), "\(error)")
        }
        XCTAssertThrowsError(try rows[0].decode(column: "word", as: UUID.self)) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .decoding)
            XCTAssertTrue("\(error)".contains("word") && "\(error)".contains("UUID") && "\(error)".contains("(text)"), "\(error)")
        }
        XCTAssertThrowsError(try rows[0].decode(column: "nope", as: String.self))
        await db.shutdown()
    }

    func testSQLStatesAreDistinguishable() async throws {
        let db = try makeClient()
        let table = uniqueTable()
        try await db.simpleQuery("CREATE TABLE \(table) (id int PRIMARY KEY, parent int REFERENCES \(table) (id))")
        try await db.execute("INSERT INTO \(unescaped: table) (id) VALUES (\(1))")
        await assertSQLState(.uniqueViolation) { try await db.execute("INSERT INTO \(unescaped: table) (id) VALUES (\(1))") }
        await assertSQLState(.foreignKeyViolation) { try await db.execute("INSERT INTO \(unescaped: table) (id, parent) VALUES (\(2), \(99))") }
        await assertSQLState(.invalidTextRepresentation) { try await db.query("SELECT \("not-a-uuid")::uuid") }
        // The errors did not poison the pool.
        let deleted = try await db.execute("DELETE FROM \(unescaped: table)")
        XCTAssertEqual(deleted, 1)
        try await db.simpleQuery("DROP TABLE \(table)")
        await db.shutdown()
    }

    func testErrorDescriptionsDoNotLeakValues() async throws {
        let db = try makeClient()
        do {
            _ = try await db.query("SELECT \("secret-value-123")::int")
            XCTFail("expected an error")
        } catch {
            XCTAssertFalse("\(error)".contains("SELECT"), "\(error)")
        }
        await db.shutdown()
    }

    private func assertSQLState(_ state: SQLState, file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> some Any) async {
        do {
            _ = try await body()
            XCTFail("expected \(state)", file: file, line: line)
        } catch {
            XCTAssertEqual((error as? PostgresError)?.sqlState, state, "\(error)", file: file, line: line)
            XCTAssertEqual((error as? PostgresError)?.kind, .server, file: file, line: line)
        }
    }
}

final class QueryCompositionTests: XCTestCase {
    func testFragmentsRenumberTheirPlaceholders() async throws {
        let low: Int32 = 2, high: Int32 = 4, tag = "x"
        let range: PostgresQuery = "n BETWEEN \(low) AND \(high)"
        let columns: PostgresQuery = "n, \(tag)::text AS tag"
        let query: PostgresQuery = "SELECT \(columns) FROM generate_series(1, \(Int32(10))) n WHERE \(range) AND '$1' = '$1'"
        XCTAssertEqual(query.sql, "SELECT n, $1::text AS tag FROM generate_series(1, $2) n WHERE n BETWEEN $3 AND $4 AND '$1' = '$1'")
        XCTAssertEqual(query.binds.map(\.text), ["x", "10", "2", "4"])
        let db = try makeClient()
        let rows = try await db.query(query)
        XCTAssertEqual(try rows.map { try $0.decode(column: "n", as: Int.self) }, [2, 3, 4])
        XCTAssertEqual(try rows[0].decode(column: "tag", as: String.self), "x")
        await db.shutdown()
    }

    func testQuotedTextAndIdentifiersKeepTheirDollars() {
        XCTAssertEqual(#"a = $1 AND "col$2" = 'it''s $3' AND b$4 = $5"#.renumberingPlaceholders(by: 10),
                       #"a = $11 AND "col$2" = 'it''s $3' AND b$4 = $15"#)
        // Non-ASCII text around placeholders: inside quotes, and as identifier characters
        // (PostgreSQL's lexer continues an identifier with any non-ASCII byte).
        XCTAssertEqual(#"'é $1' = $1 AND été$2 = $3 AND "ü" → $12"#.renumberingPlaceholders(by: 2),
                       #"'é $1' = $3 AND été$2 = $5 AND "ü" → $14"#)
        XCTAssertEqual("$ AND $x AND $9".renumberingPlaceholders(by: 1), "$ AND $x AND $10")
    }
}
