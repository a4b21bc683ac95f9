/// What a verified registration yields: everything the server stores for the credential.
public struct RegisteredCredential: Sendable, Equatable {
    public let id: [UInt8]
    /// The COSE_Key, byte for byte as the authenticator wrote it.
    public let publicKey: [UInt8]
    public let algorithm: COSEAlgorithm
    public let signCount: UInt32
    public let transports: [String]
    public let backupEligible: Bool
    public let backedUp: Bool
    /// `none`, `packed`, or the name of a format accepted unverified.
    public let attestationFormat: String
    public let attestation: AttestationKind
    /// The authenticator model's AAGUID (all zeros under `none` attestation).
    public let aaguid: [UInt8]
}

/// What the server stored at registration (and updated since), as an assertion needs it.
public struct StoredCredential: Sendable, Equatable {
    public let publicKey: [UInt8]
    public let algorithm: COSEAlgorithm
    public let signCount: UInt32
    public let backupEligible: Bool

    public init(publicKey: [UInt8], algorithm: COSEAlgorithm, signCount: UInt32, backupEligible: Bool) {
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}

/// What a verified assertion yields: the new counter and backup state for the server to store.
public struct VerifiedAssertion: Sendable, Equatable {
    public let signCount: UInt32
    public let backupEligible: Bool
    public let backedUp: Bool
    /// The credential was stored without BE and now has it: accepted, for the server to record
    /// and audit (see `Assertion.verify`).
    public var gainedBackupEligibility: Bool
    public let userHandle: [UInt8]?
}
