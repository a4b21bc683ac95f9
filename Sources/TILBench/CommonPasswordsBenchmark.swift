import CommonPasswords
import Crypt
import Foundation

/// The common-password check (issue 21) as a microbenchmark: building the list's set once
/// (what `TIL.configure` does at start-up: its time, and how much the resident memory grows),
/// then lookups on one thread, each folding a password (NFKC, lower case) and probing the set,
/// for a mix of hits and misses like the rules see. Beside it, bcrypt's hash at its default
/// cost, which follows every check that passes: the point is the ratio.
func runCommonPasswordsBenchmark(seconds: Int) throws {
    let residentBefore = residentBytes()
    let clock = ContinuousClock()
    let building = clock.measure { CommonPasswords.prepare() }
    let grown = residentBytes() - residentBefore
    let passwords = [
        "password", "PassWord1", "ｐａｓｓｗｏｒｄ", "trustno1",  // on the list, as spelled or once folded
        "correct horse battery staple", "s3cret-pass", String(repeating: "é", count: 36),  // not on it
    ]
    var hits = 0
    let lookups = repeatFor(seconds: Double(seconds)) {
        for password in passwords where CommonPasswords.contains(password) { hits += 1 }
    }
    precondition(hits > 0, "no common password was found")
    let perLookup = lookups * Double(passwords.count)
    let hashes = try repeatFor(seconds: Double(seconds)) { _ = try Bcrypt.hash("correct horse battery staple", cost: Bcrypt.defaultCost) }
    print("common passwords (\(CommonPasswords.count) on the list), one thread, \(seconds) s per measurement:")
    let milliseconds = (building / .milliseconds(1) * 10).rounded() / 10
    print("  build the set once: \(milliseconds) ms, resident memory +\(grown / 1024) KiB (the build's peak: its transient arrays too)")
    print("  lookup (fold + probe), \(passwords.count) passwords in turn: \(Int(perLookup.rounded())) /s"
        + " (\(nanoseconds(perLookup)) ns each)")
    print("  bcrypt hash at cost \(Bcrypt.defaultCost), for comparison: \(microseconds(hashes)) µs each"
        + " = \(Int((perLookup / hashes).rounded())) lookups per hash")
}

/// The process's resident memory, from /proc/self/statm (Linux), in bytes; 0 elsewhere.
private func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The time of one call at `perSecond` calls a second, in whole nanoseconds.
private func nanoseconds(_ perSecond: Double) -> Int { Int((1_000_000_000 / perSecond).rounded()) }
