// til-bench: throughput probes for the foundation modules (not tests: numbers for
// Benchmarks/RESULTS.md). Each runs for a bounded time against loopback or local CPU only.
//
//   til-bench bcrypt [seconds]                        bcrypt hashes/s at cost 12 via BcryptHasher
//   til-bench pg-select URL [seconds] [concurrency]   SELECT round-trips/s through the pool
//   til-bench jws [seconds]                           id_token signatures/s (RS256, ES256), one thread
//   til-bench webauthn [seconds]                      passkey assertion verifications/s (ES256, EdDSA, RS256), one thread
//   til-bench totp [seconds]                          TOTP checks/s on one thread, beside bcrypt's at cost 12
//   til-bench common-passwords [seconds]              the common-password list: set build time and memory, lookups/s
import Foundation

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "bcrypt":
    try await runBcryptBenchmark(seconds: arguments.dropFirst().first.flatMap { Int($0) } ?? 10)
case "totp":
    try runTOTPBenchmark(seconds: arguments.dropFirst().first.flatMap { Int($0) } ?? 2)
case "common-passwords":
    try runCommonPasswordsBenchmark(seconds: arguments.dropFirst().first.flatMap { Int($0) } ?? 2)
case "jws":
    try runJWSBenchmark(seconds: arguments.dropFirst().first.flatMap { Int($0) } ?? 3)
case "webauthn":
    try runWebAuthnBenchmark(seconds: arguments.dropFirst().first.flatMap { Int($0) } ?? 3)
case "pg-select":
    let rest = Array(arguments.dropFirst())
    guard let url = rest.first else {
        FileHandle.standardError.write(Data("usage: til-bench pg-select URL [seconds] [concurrency]\n".utf8))
        exit(2)
    }
    try await runPostgresBenchmark(
        url: url,
        seconds: rest.count > 1 ? Int(rest[1]) ?? 10 : 10,
        concurrency: rest.count > 2 ? Int(rest[2]) ?? 64 : 64)
default:
    FileHandle.standardError.write(Data("usage: til-bench bcrypt [seconds] | pg-select URL [seconds] [concurrency] | jws [seconds] | webauthn [seconds] | totp [seconds] | common-passwords [seconds]\n".utf8))
    exit(2)
}
