import Foundation
import JOSE

/// Signs an id_token-sized claims set (about 400 bytes of JSON, as OpenID Connect Core §2's
/// claims with a profile) with RS256 and ES256 through the JOSE module, on one thread, for
/// `seconds` each, and prints signatures/s: the cost of an id_token per core. Verification is
/// timed too (a relying party's side, and `id_token_hint`'s).
func runJWSBenchmark(seconds: Int) throws {
    let claims = Data("""
        {"iss":"https://til.example","sub":"5f0c1c52-9c1d-4b0a-a0a4-2f7f0a1e6c3b","aud":"til-cli","exp":1900003600,\
        "iat":1900000000,"auth_time":1899999990,"nonce":"n-0S6_WzA2Mj-8a7b6c5d4e3f2a1b0c9d8e7f","at_hash":"77QmUPtjPfzWtF2AnpK9RQ",\
        "azp":"til-cli","name":"Vapor Book Reader","preferred_username":"reader","sid":"08a5019c-17e1-4977-8f42-65a12843ea02"}
        """.utf8)
    print("JWS over \(claims.count) bytes of claims, one thread, \(seconds) s per measurement:")
    for algorithm in JWSAlgorithm.allCases {
        let key = try SigningKey.generate(algorithm)
        let keys = JWKSet(keys: [key.publicJWK])
        var token = ""
        let signs = try repeatFor(seconds: Double(seconds)) { token = try key.sign(payload: claims) }
        let verifies = try repeatFor(seconds: Double(seconds)) { _ = try JWS.verify(token, keys: keys, allowed: [algorithm]) }
        print("  \(algorithm.rawValue): sign \(Int(signs.rounded())) /s (\(microseconds(signs)) µs each), "
            + "verify \(Int(verifies.rounded())) /s (\(microseconds(verifies)) µs each), token \(token.utf8.count) bytes")
    }
}
