import Crypt
import Threads

/// Keeps `BcryptHasher` saturated at cost 12 for `seconds` and prints hashes/s: the number
/// `Benchmarks/bcrypt/run.sh` holds against libcrypt called directly from C.
///
/// 2 × threads tasks, so a job is always queued when a worker finishes one (the pool never
/// idles waiting for the next request). Every hash started before the deadline is counted,
/// over the wall time until the last one ends, as in `bcrypt-c.c`.
func runBcryptBenchmark(seconds: Int) async throws {
    let hasher = BcryptHasher(cost: 12)
    let threads = WorkerPool.shared.threadCount
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .seconds(seconds)
    let count = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<2 * threads {
            group.addTask {
                var done = 0
                while clock.now < deadline {
                    _ = try await hasher.hash("correct horse battery staple")
                    done += 1
                }
                return done
            }
        }
        return try await group.reduce(0, +)
    }
    let elapsed = (clock.now - start) / .seconds(1)
    print("bcrypt cost 12 via BcryptHasher (Swift, \(threads) threads): \(count) hashes in \(fixed(elapsed)) s"
        + " = \(fixed(Double(count) / elapsed)) hashes/s")
}

/// Two decimals without Foundation's `String(format:)`.
private func fixed(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
