import Foundation
import Logging
import Postgres

/// `concurrency` tasks doing one-row primary-key SELECTs (as `pgbench -S`) through the pool
/// for `seconds`; prints queries/s. Uses pgbench's own table when present (`pgbench -i`),
/// else a 100 000-row `pgtest_bench` table it creates.
func runPostgresBenchmark(url: String, seconds: Int, concurrency: Int) async throws {
    var logger = Logger(label: "bench")
    logger.logLevel = .warning
    let configuration = try PostgresConfiguration(url: url)
    let db = PostgresClient(configuration: configuration, logger: logger)
    let hasPgbench = try await db.query("SELECT to_regclass('pgbench_accounts')::text AS t")[0].decode(column: "t", as: String?.self) != nil
    let rows: Int
    if hasPgbench {
        rows = try await db.query("SELECT count(*)::int AS n FROM pgbench_accounts")[0].decode(column: "n", as: Int.self)
    } else {
        try await db.simpleQuery("""
            CREATE TABLE IF NOT EXISTS pgtest_bench (aid int PRIMARY KEY, abalance int NOT NULL);
            INSERT INTO pgtest_bench SELECT g, 0 FROM generate_series(1, 100000) g ON CONFLICT DO NOTHING
            """)
        rows = 100_000
    }
    let table = hasPgbench ? "pgbench_accounts" : "pgtest_bench"
    let deadline = ContinuousClock.now + .seconds(seconds)
    let start = ContinuousClock.now
    // The tasks run on the client's event loops, as request handlers run on the server's.
    let loops = try db.eventLoops()
    let count = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<concurrency {
            group.addTask(executorPreference: loops[index % loops.count]) {
                var done = 0
                while ContinuousClock.now < deadline {
                    let id = Int32.random(in: 1...Int32(rows))
                    _ = try await db.query("SELECT abalance FROM \(unescaped: table) WHERE aid = \(id)")
                    done += 1
                }
                return done
            }
        }
        return try await group.reduce(0, +)
    }
    let elapsed = ContinuousClock.now - start
    let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "pool of %d, %d tasks, %@: %d queries in %.2f s = %.0f queries/s",
                 configuration.poolSize, concurrency, table, count, secondsElapsed, Double(count) / secondsElapsed))
    await db.shutdown()
}
