/// Bounds on what one decode may build, so hostile input costs little memory and no stack.
/// The defaults fit every attestation object and COSE key with room to spare (an x5c chain of
/// a few certificates is the largest thing WebAuthn puts in CBOR).
public struct CBORLimits: Sendable, Equatable {
    /// Arrays and maps inside arrays and maps: an attestation object needs 3 (attStmt → x5c).
    public var maxDepth = 8
    /// Data items of every kind in one decode.
    public var maxItems = 1024
    /// Entries in one map: a COSE key has at most about 10.
    public var maxMapEntries = 32
    /// Bytes in one byte or text string, and elements in one array.
    public var maxLength = 16 * 1024

    public init() {}
}
