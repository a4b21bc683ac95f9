import Postgres
import Web

/// `/health` answers without touching the database (liveness, and the throughput probe);
/// `/ready` checks the database (readiness: 503 while it is down).
struct HealthController: RouteCollection {
    let db: PostgresClient

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

    func ready(_ request: Request) async throws -> Status {
        do {
            _ = try await db.query("SELECT 1 AS ok")
            return Status(status: "ready")
        } catch {
            throw Abort(.serviceUnavailable, reason: "The database is not reachable.")
        }
    }
}
