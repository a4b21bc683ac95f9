public import Foundation

/// The time TOTP codes and mfaTokens are judged by. The system clock in production; tests give
/// the app one they move (`AppConfiguration.secondFactorClock`), so a test crosses 30-second
/// steps and 5-minute expiries without sleeping through them.
public struct SecondFactorClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    public static let system = SecondFactorClock { Date() }

    public var now: Date { read() }
}
