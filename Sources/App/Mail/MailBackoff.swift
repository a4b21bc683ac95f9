/// How long to wait after a failure, each wait stretched by up to a fifth at random so that
/// what failed together does not all come back in the same second.
///
/// - A message the relay refused for now (a 4xx to its recipient or data) waits on its own:
///   5 s, doubling with each failure, at most 15 minutes.
/// - A relay that cannot be reached (or refuses the connection, TLS, the login, the sender)
///   makes no message wait: the process pauses instead, 1 s doubling to a minute, and every
///   message goes as soon as the relay answers again.
///
/// A message is given up once `giveUpAfter` has passed since it was queued (an MTA's queue
/// lifetime), so a relay gone for days costs a bounded number of attempts.
struct MailBackoff: Sendable {
    var first: Duration = .seconds(5)
    var longest: Duration = .seconds(900)
    var firstPause: Duration = .seconds(1)
    var longestPause: Duration = .seconds(60)
    var giveUpAfter: Duration = .seconds(5 * 86400)

    /// A message's wait after its `failures`-th refusal (1 for the first).
    func delay(afterFailure failures: Int, jitter: Double = Double.random(in: 0...0.2)) -> Duration {
        Self.doubling(first, failures, longest) * (1 + jitter)
    }

    /// The sender's pause after `failures` passes in a row that could not reach the relay.
    func pause(afterRelayFailures failures: Int, jitter: Double = Double.random(in: 0...0.2)) -> Duration {
        Self.doubling(firstPause, failures, longestPause) * (1 + jitter)
    }

    private static func doubling(_ first: Duration, _ count: Int, _ longest: Duration) -> Duration {
        min(first * (1 << min(max(count - 1, 0), 30)), longest)
    }
}
