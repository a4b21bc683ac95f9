public import FoundationEssentials
import Crypt

/// Time-based one-time passwords (RFC 6238): HOTP over 30-second steps since the Unix epoch,
/// SHA-1, 6 digits, which is what every authenticator app reads from an otpauth URI.
public struct TOTP: Sendable {
    /// The length of a time step in seconds (RFC 6238's X, the default every app assumes).
    public static let stepSeconds: Int64 = 30
    /// Steps either side of the current one that are still accepted (RFC 6238 §5.2: one step
    /// of clock drift or of typing delay).
    public static let allowedDrift: Int64 = 1

    private let hotp: HOTP

    public init(secret: [UInt8], digits: Int = 6) {
        hotp = HOTP(secret: secret, digits: digits)
    }

    public var digits: Int { hotp.digits }

    /// The time step containing `date` (floor division, so instants before 1970 are negative).
    public static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(stepSeconds)).rounded(.down))
    }

    /// The code for the step containing `date`.
    public func code(at date: Date) -> String {
        code(step: Self.step(at: date))
    }

    /// The code for one time step (`step` must not be negative).
    public func code(step: Int64) -> String {
        precondition(step >= 0, "TOTP steps before 1970 have no code")
        return hotp.code(counter: UInt64(step))
    }

    /// The step `code` belongs to, if it is the code of the current step at `date` or one step
    /// either side, and that step is later than `lastStep` (each accepted step is usable once,
    /// so the caller stores the answer and passes it back as `lastStep` next time).
    ///
    /// Anything but exactly `digits` ASCII digits is refused before any HMAC is computed. Every
    /// candidate step is compared, in constant time, so the timing does not tell which matched.
    public func verify(_ code: String, at date: Date, after lastStep: Int64?) -> Int64? {
        let given = Array(code.utf8)
        guard given.count == digits, given.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        let current = Self.step(at: date)
        var matched: Int64?
        for step in (current - Self.allowedDrift)...(current + Self.allowedDrift) where step >= 0 {
            guard lastStep.map({ step > $0 }) ?? true else { continue }
            if ConstantTime.equals(self.code(step: step).utf8, given) { matched = step }
        }
        return matched
    }
}
