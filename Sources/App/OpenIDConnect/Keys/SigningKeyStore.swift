import Crypt
import Foundation
import JOSE
import Postgres

/// The signing keys in PostgreSQL (`signing_keys`), their private halves sealed with
/// `SECRET_KEY` (`AtRestCipher`, bound to the kid). Every process reads the same rows, so every
/// process signs with the same key and publishes the same set.
///
/// A key's life: added (`activates_at` in the future: published, not yet signing), active (the
/// newest of its algorithm whose `activates_at` has passed), retired (a newer one of its
/// algorithm became active), pruned (retired longer than any token it signed can live).
struct SigningKeyStore: Sendable {
    let db: PostgresClient
    /// Nil without `SECRET_KEY`: reading or adding keys then throws, naming it.
    let cipher: AtRestCipher?

    /// The HKDF label of the signing keys' cipher.
    static let purpose = "til signing keys v1"

    init(db: PostgresClient, secret: SecretKey?) {
        self.db = db
        cipher = secret.map { AtRestCipher(secret: $0, purpose: Self.purpose) }
    }

    /// One stored key, as read.
    struct Row: Sendable {
        let kid: String
        let algorithm: JWSAlgorithm
        let sealedPrivateKey: [UInt8]
        let publicJWK: JWK
        let createdAt: Date
        let activatesAt: Date
        /// Seconds from the database's clock now until `activates_at` (negative: past).
        let secondsUntilActive: Double
        /// When a newer key of its algorithm became active; nil while it is the newest active one or not yet active.
        let retiredAt: Date?
    }

    /// Every stored key, oldest activation first.
    func rows(on db: (any PostgresQueryable)? = nil) async throws -> [Row] {
        try await (db ?? self.db).query("""
            SELECT k.kid, k.alg, k.private_key_sealed, k.public_jwk, k.created_at, k.activates_at,
                EXTRACT(EPOCH FROM k.activates_at - clock_timestamp())::float8 AS until_active,
                (SELECT min(n.activates_at) FROM signing_keys n
                 WHERE n.alg = k.alg AND (n.activates_at, n.seq) > (k.activates_at, k.seq)
                   AND n.activates_at <= clock_timestamp()) AS retired_at
            FROM signing_keys k ORDER BY k.activates_at, k.seq
            """).map { row in
            let alg = try row.decode(column: "alg", as: String.self)
            let kid = try row.decode(column: "kid", as: String.self)
            guard let algorithm = JWSAlgorithm(rawValue: alg),
                let sealed = Base64URL.decode(try row.decode(column: "private_key_sealed", as: String.self)),
                let jwk = try? JSONDecoder().decode(JWK.self, from: Data(try row.decode(column: "public_jwk", as: String.self).utf8))
            else { throw SigningKeyFailure.unreadableRow(kid) }
            return Row(
                kid: kid, algorithm: algorithm, sealedPrivateKey: sealed, publicJWK: jwk,
                createdAt: try row.decode(column: "created_at", as: Date.self), activatesAt: try row.decode(column: "activates_at", as: Date.self),
                secondsUntilActive: try row.decode(column: "until_active", as: Double.self),
                retiredAt: try row.decode(column: "retired_at", as: Date?.self))
        }
    }

    /// The private key of `row`, opened with `SECRET_KEY`.
    func open(_ row: Row) throws -> SigningKey {
        let cipher = try requireCipher()
        let der: [UInt8]
        do {
            der = try cipher.open(row.sealedPrivateKey, binding: Array(row.kid.utf8))
        } catch {
            throw SigningKeyFailure.wrongSecretKey(kid: row.kid)
        }
        return try SigningKey(privateDER: der, algorithm: row.algorithm, kid: row.kid)
    }

    /// Adds a fresh key of `algorithm` that starts signing `delay` from now (by the database's
    /// clock); its kid is its RFC 7638 thumbprint.
    @discardableResult
    func add(_ algorithm: JWSAlgorithm, activatingAfter delay: Duration, on db: (any PostgresQueryable)? = nil) async throws -> SigningKey {
        let cipher = try requireCipher()
        let key = try SigningKey.generate(algorithm)
        let sealed = Base64URL.encode(cipher.seal(try key.privateDER(), binding: Array(key.kid.utf8)))
        let jwk = String(decoding: try JSONEncoder().encode(key.publicJWK), as: UTF8.self)
        try await (db ?? self.db).execute("""
            INSERT INTO signing_keys (kid, alg, private_key_sealed, public_jwk, activates_at)
            VALUES (\(key.kid), \(algorithm.rawValue), \(sealed), \(jwk),
                clock_timestamp() + \(Double(delay.components.seconds)) * interval '1 second')
            """)
        return key
    }

    /// Adds an active key for each algorithm that has none stored, once however many processes
    /// start together: the first takes a transaction-scoped advisory lock, the others wait for
    /// it and then find the keys there. The algorithms it added.
    @discardableResult
    func addMissingKeys() async throws -> [JWSAlgorithm] {
        let present = try await db.query("SELECT DISTINCT alg FROM signing_keys").map { try $0.decode(column: "alg", as: String.self) }
        guard Set(present) != Set(JWSAlgorithm.allCases.map(\.rawValue)) else { return [] }
        _ = try requireCipher()
        return try await db.withTransaction { tx in
            try await tx.execute("SELECT pg_advisory_xact_lock(4, 0)")
            let stored = Set(try await tx.query("SELECT DISTINCT alg FROM signing_keys").map { try $0.decode(column: "alg", as: String.self) })
            let missing = JWSAlgorithm.allCases.filter { !stored.contains($0.rawValue) }
            for algorithm in missing { try await add(algorithm, activatingAfter: .zero, on: tx) }
            return missing
        }
    }

    /// Deletes the keys retired for longer than `retention` (as of `asOf`, nil: the database's
    /// clock); the kids deleted.
    func prune(retention: Duration, asOf: Date? = nil) async throws -> [String] {
        try await db.query(Self.pruneStatement(retention: retention, asOf: asOf)).map { try $0.decode(column: "kid", as: String.self) }
    }

    /// A key goes once a newer key of its algorithm has been active for `retention`: every token
    /// the old one signed has expired by then. The active key never goes (none newer is active).
    static func pruneStatement(retention: Duration, asOf: Date?) -> PostgresQuery {
        """
        DELETE FROM signing_keys k WHERE EXISTS (
            SELECT 1 FROM signing_keys n
            WHERE n.alg = k.alg AND (n.activates_at, n.seq) > (k.activates_at, k.seq)
              AND n.activates_at < coalesce(\(asOf), clock_timestamp()) - \(Double(retention.components.seconds)) * interval '1 second')
        RETURNING k.kid
        """
    }

    private func requireCipher() throws -> AtRestCipher {
        guard let cipher else { throw SigningKeyFailure.noSecretKey }
        return cipher
    }
}
