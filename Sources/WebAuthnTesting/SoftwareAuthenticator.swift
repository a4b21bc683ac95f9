import Crypt
public import Foundation
public import WebAuthn

/// A passkey authenticator in software: one credential (ES256, EdDSA or RS256, its key made
/// by OpenSSL) that answers `create()` with RegistrationResponseJSON and `get()` with
/// AuthenticationResponseJSON, byte for byte as a browser would hand them to a server.
/// `Tampering` makes any single part of a response wrong.
public struct SoftwareAuthenticator: Sendable {
    public let algorithm: COSEAlgorithm
    public let rpID: String
    public let origin: String
    public private(set) var credentialID: [UInt8]
    /// The last counter value used; an assertion increments it first unless `countsSignatures` is false.
    public var signCount: UInt32
    /// False for a synced passkey, whose counter stays 0.
    public var countsSignatures: Bool
    public var backupEligible: Bool
    public var backedUp: Bool
    /// The user handle registration was given, returned by assertions.
    public private(set) var userHandle: [UInt8]?
    let key: EVPKey

    /// The AAGUID written at registration (an arbitrary, fixed model id).
    public static let aaguid: [UInt8] = Array("TIL-software-key".utf8)

    public init(
        algorithm: COSEAlgorithm, rpID: String, origin: String, countsSignatures: Bool = true, backupEligible: Bool = false,
        backedUp: Bool = false
    ) throws {
        self.algorithm = algorithm
        self.rpID = rpID
        self.origin = origin
        self.countsSignatures = countsSignatures
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        signCount = 0
        credentialID = SecureRandom.bytes(count: 32)
        let kind: EVPKey.Kind = switch algorithm {
        case .es256: .p256
        case .edDSA: .ed25519
        case .rs256: .rsa(bits: 2048)
        }
        key = try EVPKey.generate(kind)
    }

    /// The credential's public key as a COSE_Key (what registration reports and servers store).
    public func publicKeyCOSE(algorithm alg: Int? = nil) throws -> [UInt8] {
        let label = CBORValue.int
        var entries: [(CBORValue, CBORValue)]
        switch algorithm {
        case .es256:
            entries = [(label(1), label(2)), (label(3), label(alg ?? -7)), (label(-1), label(1)),
                (label(-2), .bytes(try key.bigEndian("qx", width: 32))), (label(-3), .bytes(try key.bigEndian("qy", width: 32)))]
        case .edDSA:
            entries = [(label(1), label(1)), (label(3), label(alg ?? -8)), (label(-1), label(6)), (label(-2), .bytes(try key.rawPublicKey()))]
        case .rs256:
            entries = [(label(1), label(3)), (label(3), label(alg ?? -257)), (label(-1), .bytes(try key.bigEndian("n"))),
                (label(-2), .bytes(try key.bigEndian("e")))]
        }
        return CBORWriter.encode(.map(entries.map { CBORMapEntry(key: $0.0, value: $0.1) }))
    }

    /// RegistrationResponseJSON for `challenge`; remembers `userID` as the user handle.
    public mutating func register(
        challenge: [UInt8], userID: [UInt8], attestation: AttestationStyle = .none, tampering: Tampering = Tampering()
    ) throws -> Data {
        userHandle = userID
        if let length = tampering.credentialIDLength { credentialID = SecureRandom.bytes(count: length) }
        var attested = Self.aaguid + [UInt8(credentialID.count >> 8 & 0xFF), UInt8(credentialID.count & 0xFF)] + credentialID
        attested += try publicKeyCOSE(algorithm: tampering.coseAlgorithm)
        let authData = authenticatorData(flags: 0x40, counter: signCount, tampering: tampering) + attested
        let clientData = clientDataJSON(type: "webauthn.create", challenge: challenge, tampering: tampering)
        let statement = try attestationStatement(attestation, signed: authData + SHA256.hash(clientData), tampering: tampering)
        let object = CBORWriter.encode(.map([
            CBORMapEntry(key: .text("fmt"), value: .text(attestation == .none ? "none" : "packed")),
            CBORMapEntry(key: .text("attStmt"), value: statement),
            CBORMapEntry(key: .text("authData"), value: .bytes(authData)),
        ]))
        return try ResponseJSON.registration(
            rawID: tampering.rawID ?? credentialID, clientDataJSON: tampering.alterClientDataJSON?(clientData) ?? clientData,
            attestationObject: object, transports: ["internal", "hybrid"])
    }

    /// AuthenticationResponseJSON for `challenge`, with the next counter value.
    public mutating func assert(challenge: [UInt8], tampering: Tampering = Tampering()) throws -> Data {
        if countsSignatures { signCount += 1 }
        let authData = authenticatorData(flags: 0, counter: signCount, tampering: tampering)
        let clientData = clientDataJSON(type: "webauthn.get", challenge: challenge, tampering: tampering)
        var signature = try sign(authData + SHA256.hash(clientData))
        if tampering.badSignature { signature[signature.count / 2] ^= 0x01 }
        return try ResponseJSON.authentication(
            rawID: tampering.rawID ?? credentialID, clientDataJSON: tampering.alterClientDataJSON?(clientData) ?? clientData,
            authenticatorData: authData, signature: signature, userHandle: tampering.userHandle ?? userHandle)
    }

    func sign(_ message: [UInt8]) throws -> [UInt8] {
        try key.sign(message, digest: algorithm == .edDSA ? .none : .sha256)  // ES256: DER, as WebAuthn wants
    }

    /// rpIdHash ‖ flags ‖ counter, UP and UV set unless tampered with, BE/BS as configured.
    private func authenticatorData(flags extra: UInt8, counter: UInt32, tampering: Tampering) -> [UInt8] {
        var flags = AuthenticatorFlags(rawValue: extra)
        for (flag, honest, forced) in [
            (AuthenticatorFlags.userPresent, true, tampering.userPresent), (.userVerified, true, tampering.userVerified),
            (.backupEligible, backupEligible, tampering.backupEligible), (.backedUp, backedUp, tampering.backedUp),
        ] where forced ?? honest {
            flags.insert(flag)
        }
        let count = tampering.signCount ?? counter
        return SHA256.hash((tampering.rpID ?? rpID).utf8) + [flags.rawValue]
            + [UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
    }

    /// clientDataJSON as browsers write it: type, challenge, origin, crossOrigin, in that order.
    private func clientDataJSON(type: String, challenge: [UInt8], tampering: Tampering) -> [UInt8] {
        let members = [
            ("type", ResponseJSON.quoted(tampering.type ?? type)),
            ("challenge", ResponseJSON.quoted(Base64URL.encode(tampering.challenge ?? challenge))),
            ("origin", ResponseJSON.quoted(tampering.origin ?? origin)),
            ("crossOrigin", (tampering.crossOrigin ?? false) ? "true" : "false"),
        ]
        return Array(("{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
    }

    private func attestationStatement(_ style: AttestationStyle, signed message: [UInt8], tampering: Tampering) throws -> CBORValue {
        let alg = CBORMapEntry(key: .text("alg"), value: .int(tampering.coseAlgorithm ?? algorithm.rawValue))
        switch style {
        case .none:
            return .map([])
        case .packedSelf:
            return .map([alg, CBORMapEntry(key: .text("sig"), value: .bytes(try sign(message)))])
        case .packedCertificate:
            let certificate = try AttestationCertificate.make()
            return .map([
                CBORMapEntry(key: .text("alg"), value: .int(COSEAlgorithm.es256.rawValue)),
                CBORMapEntry(key: .text("sig"), value: .bytes(try certificate.key.sign(message, digest: .sha256))),
                CBORMapEntry(key: .text("x5c"), value: .array([.bytes(certificate.der)])),
            ])
        }
    }
}
