import COpenSSL

/// SHA-256 through OpenSSL. Tokens are stored as their digest, never as themselves.
public enum SHA256 {
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        let input = Array(bytes)
        let ok = input.withUnsafeBytes { source in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(source.baseAddress, source.count, output.baseAddress, nil, EVP_sha256(), nil)
            }
        }
        precondition(ok == 1, "OpenSSL EVP_Digest failed")
        return digest
    }

    /// The lowercase hex digest of a string's UTF-8 bytes.
    public static func hex(of string: String) -> String {
        hex(hash(Array(string.utf8)))
    }

    public static func hex(_ bytes: [UInt8]) -> String {
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
