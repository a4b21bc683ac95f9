import Foundation
import Logging
import Web

/// `notes-api`: a second API that trusts TIL (issue 19). It keeps nothing of TIL's: it asks
/// TIL's introspection endpoint (RFC 7662) whether a bearer token is active, for this API
/// (`aud`) and with the scope a route needs. Configured by `NOTES_*` environment variables
/// (`NotesSettings`); a bad value exits 78 (EX_CONFIG), as til-server does.
@main
enum NotesAPI {
    static func main() async {
        let settings: NotesSettings
        do {
            settings = try NotesSettings(environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("notes-api: \(error)\n".utf8))
            exit(78)
        }
        LoggingSystem.bootstrap { LogfmtLogHandler(label: $0) }
        let app = Application(environment: .production, logger: Logger(label: "notes-api"))
        app.http.host = settings.host
        app.http.port = settings.port
        app.http.serverName = "notes-api"
        app.logger.notice("resource \(settings.resourceURI), tokens checked at \(settings.issuer.absoluteString)")
        do {
            try NotesApp(settings: settings).configure(app)
            try await app.run()
        } catch {
            // A port in use, say: the operator's line, not a crash report.
            FileHandle.standardError.write(Data("notes-api: \(error)\n".utf8))
            exit(1)
        }
    }
}
