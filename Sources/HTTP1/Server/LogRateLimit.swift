import Synchronization

/// At most `linesPerSecond` lines a second of one kind: a flood (garbage requests, a database
/// that is down) leaves a trace without becoming a flood of lines. The lines left out are
/// counted, and the count is handed back once their second is over, for one summary line.
///
/// Shared by every loop; a `Mutex` is enough for events that each cost a syscall or more.
public final class LogRateLimit: Sendable {
    private struct Window {
        var start = ContinuousClock.now
        var lines = 0
        var suppressed = 0
    }

    private let window = Mutex(Window())
    private let linesPerSecond: Int

    public init(linesPerSecond: Int) {
        self.linesPerSecond = max(1, linesPerSecond)
    }

    /// Whether this line may be written, and how many lines the previous second left out
    /// (to be summed up now; 0 when none).
    public func admit(now: ContinuousClock.Instant = .now) -> (write: Bool, suppressedBefore: Int) {
        window.withLock { window in
            let suppressed = Self.closeIfOver(&window, now: now)
            guard window.lines < linesPerSecond else {
                window.suppressed += 1
                return (false, suppressed)
            }
            window.lines += 1
            return (true, suppressed)
        }
    }

    /// The lines a finished second left out (0 while it runs): for a periodic summary, so
    /// one also comes when the flood has stopped.
    public func closeWindow(now: ContinuousClock.Instant = .now) -> Int {
        window.withLock { Self.closeIfOver(&$0, now: now) }
    }

    private static func closeIfOver(_ window: inout Window, now: ContinuousClock.Instant) -> Int {
        guard now - window.start >= .seconds(1) else { return 0 }
        defer { window = Window(start: now) }
        return window.suppressed
    }
}
