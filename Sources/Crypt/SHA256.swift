import COpenSSL

/// SHA-256 through OpenSSL's EVP interface. Bearer tokens are stored as their digest, never
/// as themselves, so a leaked table holds nothing that logs anyone in.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let input = Array(bytes)
        let status = input.withUnsafeBytes { source in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(source.baseAddress, source.count, output.baseAddress, nil, EVP_sha256(), nil)
            }
        }
        // Fails only if OpenSSL cannot allocate a context: nothing sensible to return instead.
        guard status == 1 else { fatalError("OpenSSL EVP_Digest(SHA-256) failed") }
        return digest
    }

    /// The lowercase hex digest of a string's UTF-8 bytes.
    public static func hex(of string: String) -> String {
        hex(hash(string.utf8))
    }

    /// Lowercase hex, two characters a byte.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 15)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
