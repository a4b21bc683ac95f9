import Crypt

/// A public JSON Web Key (RFC 7517) for signature verification: an RSA key (`n`, `e`,
/// RFC 7518 §6.3.1) or a P-256 key (`crv`, `x`, `y`, §6.2.1), members base64url.
public struct JWK: Codable, Sendable, Equatable {
    public var kty: String
    public var use: String?
    public var alg: String?
    public var kid: String?
    public var n: String?
    public var e: String?
    public var crv: String?
    public var x: String?
    public var y: String?

    public init(
        kty: String, use: String? = nil, alg: String? = nil, kid: String? = nil, n: String? = nil, e: String? = nil,
        crv: String? = nil, x: String? = nil, y: String? = nil
    ) {
        (self.kty, self.use, self.alg, self.kid) = (kty, use, alg, kid)
        (self.n, self.e, self.crv, self.x, self.y) = (n, e, crv, x, y)
    }

    /// The RFC 7638 thumbprint: base64url SHA-256 of the required members, in lexicographic
    /// order, without whitespace. TIL uses it as the `kid`, so a kid names exactly one key.
    public func thumbprint() throws(JOSEError) -> String {
        let members: [(String, String?)] = switch kty {
        case "RSA": [("e", e), ("kty", kty), ("n", n)]
        case "EC": [("crv", crv), ("kty", kty), ("x", x), ("y", y)]
        default: throw .invalidKey("unsupported kty '\(kty)'")
        }
        var json = "{"
        for (index, (name, value)) in members.enumerated() {
            // Every value is base64url or a short name: nothing in it needs JSON escaping.
            guard let value, value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
                throw .invalidKey("\(kty) key without a valid '\(name)'")
            }
            json += (index == 0 ? "" : ",") + "\"\(name)\":\"\(value)\""
        }
        return Base64URL.encode(SHA256.hash(Array((json + "}").utf8)))
    }

    /// The OpenSSL public key this JWK describes, checked to be one `algorithm` verifies with.
    func publicKey(for algorithm: JWSAlgorithm) throws(JOSEError) -> EVPKey {
        guard kty == algorithm.keyType, alg == nil || alg == algorithm.rawValue else {
            throw .invalidKey("kty \(kty)/alg \(alg ?? "-") is not \(algorithm.rawValue)'s")
        }
        let key: EVPKey
        switch algorithm {
        case .rs256:
            guard let modulus = n.flatMap(Base64URL.decode), let exponent = e.flatMap(Base64URL.decode) else {
                throw .invalidKey("RSA key without base64url n and e")
            }
            do { key = try PublicKeyBuilder.rsa(modulus: modulus, exponent: exponent) } catch { throw JOSEError(error) }
        case .es256:
            guard crv == "P-256", let x = x.flatMap(Base64URL.decode), let y = y.flatMap(Base64URL.decode),
                x.count == ECDSASignature.coordinateSize, y.count == ECDSASignature.coordinateSize
            else { throw .invalidKey("EC key that is not P-256 with 32-byte x and y") }
            do { key = try PublicKeyBuilder.p256(x: x, y: y) } catch { throw JOSEError(error) }
        }
        try key.check(algorithm)
        return key
    }

    /// The public JWK of a private key: `use: sig`, the algorithm, and its thumbprint as kid
    /// unless `kid` is given.
    static func publicJWK(of key: EVPKey, algorithm: JWSAlgorithm, kid: String?) throws(JOSEError) -> JWK {
        var jwk: JWK
        do {
            switch algorithm {
            case .rs256:
                jwk = JWK(kty: "RSA", n: Base64URL.encode(try key.bigEndian("n")), e: Base64URL.encode(try key.bigEndian("e")))
            case .es256:
                let width = ECDSASignature.coordinateSize
                jwk = JWK(
                    kty: "EC", crv: "P-256",
                    x: Base64URL.encode(try key.bigEndian("qx", width: width)), y: Base64URL.encode(try key.bigEndian("qy", width: width)))
            }
        } catch {
            throw JOSEError(error)
        }
        jwk.use = "sig"
        jwk.alg = algorithm.rawValue
        jwk.kid = if let kid { kid } else { try jwk.thumbprint() }
        return jwk
    }
}
