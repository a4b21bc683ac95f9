import CCrypt

/// bcrypt through libcrypt (libxcrypt): `$2b$` hashes, salts from OpenSSL's CSPRNG.
///
/// Synchronous and slow by design (~0.1 s at cost 12): servers call it through
/// `BcryptHasher`, which runs it on the worker pool, never on an I/O thread. Each call has its
/// own heap-allocated `crypt_data`, so there is no shared state and calls may run in parallel.
public enum Bcrypt {
    public static let maxPasswordBytes = 72

    /// A new `$2b$` hash of `password` at `cost` (always passed explicitly: libcrypt's own
    /// default for `$2b$` is only 5).
    public static func hash(_ password: String, cost: Int = 12) throws -> String {
        try validate(password)
        guard (4...31).contains(cost) else { throw BcryptError.invalidCost(cost) }
        let salt = SecureRandom.bytes(count: 16)
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        let made = salt.withUnsafeBufferPointer { entropy in
            crypt_gensalt_rn("$2b$", UInt(cost), entropy.baseAddress, Int32(entropy.count), &setting, Int32(setting.count))
        }
        guard made != nil else { throw BcryptError.hashingFailed }
        guard let hash = run(password, setting: setting) else { throw BcryptError.hashingFailed }
        return hash
    }

    /// Whether `password` matches `hash` (`$2a$`, `$2b$` or `$2y$`). A malformed hash simply
    /// does not match; the comparison of the recomputed hash is constant-time.
    public static func verify(_ password: String, created hash: String) throws -> Bool {
        try validate(password)
        guard isWellFormed(hash) else { return false }
        let setting = Array(hash.utf8CString)
        guard let computed = run(password, setting: setting) else { return false }
        return ConstantTime.equals(Array(computed.utf8), Array(hash.utf8))
    }

    /// `$2a$`/`$2b$`/`$2y$`, two cost digits, `$`, 53 characters of bcrypt's base64.
    static func isWellFormed(_ hash: String) -> Bool {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
              [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]),
              bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
              let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)), (4...31).contains(cost)
        else { return false }
        return bytes[7...].allSatisfy { byte in
            byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") || (byte >= 0x30 && byte <= 0x39)
                || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
        }
    }

    private static func validate(_ password: String) throws {
        guard password.utf8.count <= maxPasswordBytes else { throw BcryptError.passwordTooLong }
        guard !password.utf8.contains(0) else { throw BcryptError.passwordContainsNUL }
    }

    /// One `crypt_rn` call with its own `crypt_data`; nil on failure.
    private static func run(_ password: String, setting: [CChar]) -> String? {
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer {
            // The work area holds key material: wipe it before freeing.
            UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
        let result = password.withCString { phrase in
            setting.withUnsafeBufferPointer { crypt_rn(phrase, $0.baseAddress, data, Int32(MemoryLayout<crypt_data>.size)) }
        }
        guard let result else { return nil }
        let hash = String(cString: result)
        return hash.hasPrefix("*") ? nil : hash
    }
}
