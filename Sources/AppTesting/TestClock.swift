public import App
public import Foundation
import OneTimePasswords
import Synchronization

/// A clock the tests move: the second factors' time (TOTP steps, mfaToken expiry), starting
/// at the first second of a 30-second step, so `advance(steps:)` lands on step boundaries.
public final class TestClock: Sendable {
    private let instant: Mutex<Date>
    public static let start = Date(timeIntervalSince1970: 1_800_000_000)  // a multiple of 30

    public init(_ start: Date = TestClock.start) {
        instant = Mutex(start)
    }

    public var now: Date { instant.withLock { $0 } }
    public var clock: SecondFactorClock { SecondFactorClock { [self] in now } }

    public func advance(seconds: TimeInterval) {
        instant.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func advance(steps: Int) {
        advance(seconds: Double(steps) * Double(TOTP.stepSeconds))
    }
}
