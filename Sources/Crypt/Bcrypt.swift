import CCrypt
import COpenSSL

/// bcrypt through libcrypt (libxcrypt): new hashes are `$2b$`; `$2a$` and `$2y$` hashes made by
/// other implementations verify too.
///
/// Synchronous and slow by design (~0.2 s at cost 12): servers call it through `BcryptHasher`,
/// which runs it on the worker pool, never on an I/O thread. Each call has its own
/// heap-allocated `crypt_data` (~32 KiB, too big for a thread's stack), so there is no shared
/// state and calls may run in parallel.
public enum Bcrypt {
    /// bcrypt reads at most 72 bytes; longer passwords are refused, never silently cut.
    public static let maxPasswordBytes = 72
    /// The costs (log₂ of the rounds) that bcrypt defines.
    public static let costs = 4...31
    /// The cost `BcryptHasher` uses unless told otherwise.
    public static let defaultCost = 12

    /// A new `$2b$` hash of `password` with a fresh 16-byte salt. The cost is always passed to
    /// libcrypt explicitly: its own default for `$2b$` is only 5.
    public static func hash(_ password: String, cost: Int = defaultCost) throws -> String {
        try check(password)
        guard costs.contains(cost) else { throw BcryptError.invalidCost(cost) }
        let salt = SecureRandom.bytes(count: 16)
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        let made = salt.withUnsafeBufferPointer { entropy in
            crypt_gensalt_rn("$2b$", UInt(cost), entropy.baseAddress, Int32(entropy.count), &setting, Int32(setting.count))
        }
        guard made != nil, let hash = crypt(password, setting: setting) else { throw BcryptError.hashingFailed }
        return hash
    }

    /// Whether `password` matches `hash`. A malformed hash matches nothing (it is not an error
    /// of the caller's input); the recomputed hash is compared in constant time.
    public static func verify(_ password: String, created hash: String) throws -> Bool {
        try check(password)
        guard isWellFormed(hash), let computed = crypt(password, setting: Array(hash.utf8CString)) else {
            return false
        }
        return ConstantTime.equals(computed.utf8, hash.utf8)
    }

    /// Whether bcrypt can take `password` whole: at most 72 bytes, no NUL inside.
    public static func canTake(_ password: String) -> Bool {
        password.utf8.count <= maxPasswordBytes && !password.utf8.contains(0)
    }

    /// Throws for passwords bcrypt cannot take whole: over 72 bytes, or with a NUL inside
    /// (C would stop reading there). Cheap, so `BcryptHasher` checks before queueing work.
    static func check(_ password: String) throws {
        guard password.utf8.count <= maxPasswordBytes else { throw BcryptError.passwordTooLong }
        guard !password.utf8.contains(0) else { throw BcryptError.passwordContainsNUL }
    }

    /// `$2a$`, `$2b$` or `$2y$`, two cost digits in 04...31, `$`, then 53 characters of
    /// bcrypt's base64 (22 of salt, 31 of digest). Checked before libcrypt sees the string, so
    /// a damaged hash can neither select another algorithm nor ask for an absurd cost.
    static func isWellFormed(_ hash: String) -> Bool {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60,
              bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
              bytes[2] == UInt8(ascii: "a") || bytes[2] == UInt8(ascii: "b") || bytes[2] == UInt8(ascii: "y"),
              bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
              let tens = digit(bytes[4]), let units = digit(bytes[5]), costs.contains(tens * 10 + units)
        else { return false }
        return bytes[7...].allSatisfy(isBcryptBase64)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func isBcryptBase64(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    /// One `crypt_rn` call with its own zeroed `crypt_data`. Nil when libcrypt refuses the
    /// setting: it returns NULL or a failure token starting with `*` ("*0", "*1").
    private static func crypt(_ password: String, setting: [CChar]) -> String? {
        let size = MemoryLayout<crypt_data>.size
        let data = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<crypt_data>.alignment)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        defer {
            // The work area held key material; OPENSSL_cleanse is a wipe the optimiser keeps.
            OPENSSL_cleanse(data, size)
            data.deallocate()
        }
        let result = password.withCString { phrase in
            setting.withUnsafeBufferPointer { setting in
                crypt_rn(phrase, setting.baseAddress, data.assumingMemoryBound(to: crypt_data.self), Int32(size))
            }
        }
        guard let result, result.pointee != CChar(UInt8(ascii: "*")) else { return nil }
        return String(cString: result)
    }
}
