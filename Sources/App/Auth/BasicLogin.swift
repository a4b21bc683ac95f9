import Crypt
import Web

/// Checks HTTP Basic credentials against the stored bcrypt hash, on the worker pool.
struct BasicLogin: Sendable {
    let users: UserRepository
    let hasher: BcryptHasher

    /// A hash of a random password, verified when the username is unknown so that a
    /// response takes as long for unknown users as for wrong passwords (no user enumeration).
    private static let dummySaltAndHash = "CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"

    func authenticate(_ request: Request) async throws -> User {
        let challenge: HTTPHeaders = ["WWW-Authenticate": #"Basic realm="TIL""#]
        guard let basic = request.headers.basicAuthorization else {
            throw Abort(.unauthorized, reason: "HTTP Basic credentials are required.", headers: challenge)
        }
        guard basic.password.utf8.count <= Bcrypt.maxPasswordBytes, basic.username.utf8.count <= 256 else {
            throw Abort(.unauthorized, reason: "Invalid username or password.", headers: challenge)
        }
        let user = try await users.find(username: basic.username)
        let matches = try await hasher.verify(basic.password, created: user?.passwordHash ?? dummyHash(cost: hasher.cost))
        guard let user, matches else {
            throw Abort(.unauthorized, reason: "Invalid username or password.", headers: challenge)
        }
        return user
    }

    /// The dummy hash at the configured cost, so it costs what a real check costs.
    private func dummyHash(cost: Int) -> String {
        let digits = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$2b$\(digits)$" + Self.dummySaltAndHash
    }
}
