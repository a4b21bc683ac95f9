/// How long a message waits after a failed attempt: 5 s, doubling with each failure, at most
/// 15 minutes, each stretched by up to a fifth at random so that messages failed together
/// (a relay down under a burst) do not all come back in the same second. A message is given
/// up once `giveUpAfter` has passed since it was queued (an MTA's queue lifetime), so a relay
/// that is gone for days costs a bounded number of attempts.
struct MailBackoff: Sendable {
    var first: Duration = .seconds(5)
    var longest: Duration = .seconds(900)
    var giveUpAfter: Duration = .seconds(5 * 86400)

    /// The wait after the `failures`-th failed attempt (1 for the first).
    func delay(afterFailure failures: Int, jitter: Double = Double.random(in: 0...0.2)) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        let base = min(first * (1 << doublings), longest)
        return base + base * jitter
    }
}
