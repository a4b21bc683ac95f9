import Crypt
import Foundation

/// Keeps `BcryptHasher` saturated (2 × cores tasks) at cost 12 for `seconds`; prints hashes/s.
func runBcryptBenchmark(seconds: Int) async throws {
    let hasher = BcryptHasher(cost: 12)
    let deadline = ContinuousClock.now + .seconds(seconds)
    let start = ContinuousClock.now
    let tasks = 2 * ProcessInfo.processInfo.activeProcessorCount
    let count = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<tasks {
            group.addTask {
                var done = 0
                while ContinuousClock.now < deadline {
                    _ = try await hasher.hash("correct horse battery staple")
                    done += 1
                }
                return done
            }
        }
        return try await group.reduce(0, +)
    }
    let elapsed = ContinuousClock.now - start
    let rate = Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    print(String(format: "bcrypt cost 12 via BcryptHasher: %d hashes in %.2f s = %.2f hashes/s (%d threads)",
                 count, Double(elapsed.components.seconds), rate, WorkerPool.shared.threadCount))
}
