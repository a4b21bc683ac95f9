import Postgres
import Web

/// `/health` answers without touching the database (liveness, and the throughput probe);
/// `/ready` checks the database (readiness: 503 while it is down) and says how mail goes out
/// (`smtp`, `files`, or `not configured`: still 200, since a 503 would pull every node out of
/// the balancer for something no node can fix).
struct HealthController: RouteCollection {
    let db: PostgresClient
    /// `MailSettings.readiness`.
    let mail: String

    struct Status: Content {
        var status: String

        /// Written directly: `/ready` is probed often, so it should not pay for the
        /// `Encodable` fallback.
        func writeJSON(to json: JSONSink) {
            json.object { $0.field("status", status) }
        }
    }

    func boot(routes: any RoutesBuilder) throws {
        // Liveness never changes its answer, so it is encoded once, not per probe.
        let healthy = try Response.json(Status(status: "ok"))
        routes.get("health") { _ in healthy }
        routes.get("ready", use: ready)
    }

    /// `/ready`'s answer: the database's state and how mail goes out.
    struct Readiness: Content {
        var status: String
        var mail: String

        func writeJSON(to json: JSONSink) {
            json.object {
                $0.field("status", status)
                $0.field("mail", mail)
            }
        }
    }

    func ready(_ request: Request) async throws -> Readiness {
        do {
            _ = try await db.query("SELECT 1 AS ok")
            return Readiness(status: "ready", mail: mail)
        } catch {
            throw Abort(.serviceUnavailable, reason: "The database is not reachable.")
        }
    }
}
