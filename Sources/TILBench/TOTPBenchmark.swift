import Crypt
import Foundation
import OneTimePasswords

/// TOTP checks per second on one thread, as the server makes them: the sealed secret opened
/// (AES-256-GCM under a HKDF-derived key, `AtRestCipher`), then the code compared with the
/// three codes of the step window (three HMAC-SHA-1s). Beside it, bcrypt at its default cost on
/// one thread, the password check the second factor follows: the point is the ratio.
func runTOTPBenchmark(seconds: Int) throws {
    let secret = TOTPSecret.generate()
    let cipher = AtRestCipher(secret: SecretKey.random(), purpose: "til-bench totp")
    let binding = Array("5f0c1c52-9c1d-4b0a-a0a4-2f7f0a1e6c3b".utf8)
    let sealed = cipher.seal(secret, binding: binding)
    let now = Date()
    let code = TOTP(secret: secret).code(at: now)
    var accepted = 0
    let verifies = repeatFor(seconds: Double(seconds)) {
        if TOTP(secret: secret).verify(code, at: now, after: nil) != nil { accepted += 1 }
    }
    let checks = try repeatFor(seconds: Double(seconds)) {
        let opened = try cipher.open(sealed, binding: binding)
        if TOTP(secret: opened).verify(code, at: now, after: nil) != nil { accepted += 1 }
    }
    let cost = Bcrypt.defaultCost
    let hash = try Bcrypt.hash("correct horse battery staple", cost: cost)
    let bcrypts = try repeatFor(seconds: Double(seconds)) { _ = try Bcrypt.verify("correct horse battery staple", created: hash) }
    precondition(accepted > 0, "the code never verified")
    print("TOTP on one thread, \(seconds) s per measurement:")
    print("  verify (3 HMAC-SHA-1 over the ±1 step window): \(Int(verifies.rounded())) /s (\(microseconds(verifies)) µs each)")
    print("  open the sealed secret + verify: \(Int(checks.rounded())) /s (\(microseconds(checks)) µs each)")
    print("  bcrypt verify at cost \(cost), for comparison: \(fixed2(bcrypts)) /s (\(microseconds(bcrypts)) µs each)"
        + " = \(Int((checks / bcrypts).rounded())) TOTP checks per password check")
}

private func fixed2(_ value: Double) -> String {
    String(Double(Int((value * 100).rounded())) / 100)
}
