/// The Ed25519 public keys that are points of small order (dividing the cofactor 8). OpenSSL
/// verifies Ed25519 as RFC 8032 §5.1.7 says and does not refuse them, yet under such a key
/// [S]B = R + [k]A has forgeable solutions: with the identity, (R = identity, S = 0) verifies
/// for every message. No honest authenticator makes one, so a COSE key that is one is refused.
enum Ed25519SmallOrder {
    /// The y coordinates (little-endian, x's sign bit cleared) of the eight small-order points
    /// and the non-canonical spellings of y = 0 and y = 1 (p and p + 1).
    private static let ys: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),  // y = 0: order 4
        [1] + [UInt8](repeating: 0, count: 31),  // y = 1: the identity
        [0x26, 0xE8, 0x95, 0x8F, 0xC2, 0xB2, 0x27, 0xB0, 0x45, 0xC3, 0xF4, 0x89, 0xF2, 0xEF, 0x98, 0xF0,
            0xD5, 0xDF, 0xAC, 0x05, 0xD3, 0xC6, 0x33, 0x39, 0xB1, 0x38, 0x02, 0x88, 0x6D, 0x53, 0xFC, 0x05],  // order 8
        [0xC7, 0x17, 0x6A, 0x70, 0x3D, 0x4D, 0xD8, 0x4F, 0xBA, 0x3C, 0x0B, 0x76, 0x0D, 0x10, 0x67, 0x0F,
            0x2A, 0x20, 0x53, 0xFA, 0x2C, 0x39, 0xCC, 0xC6, 0x4E, 0xC7, 0xFD, 0x77, 0x92, 0xAC, 0x03, 0x7A],  // order 8
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],  // y = p − 1: order 2
        [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],  // y = p, i.e. 0
        [0xEE] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],  // y = p + 1, i.e. 1
    ]

    /// True when the 32 bytes `key` encode a small-order point (with either sign of x).
    static func contains(_ key: [UInt8]) -> Bool {
        guard key.count == 32 else { return false }
        let y = key.dropLast() + [key[31] & 0x7F]
        return ys.contains { $0 == Array(y) }
    }
}
