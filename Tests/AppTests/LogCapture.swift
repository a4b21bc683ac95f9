import Logging
import Synchronization

/// Keeps every log line an app writes, so tests can read the audit trail.
final class LogCapture: Sendable {
    struct Line: Sendable {
        var label: String
        var level: Logger.Level
        var message: String
        var metadata: [String: String]

        /// The message and every metadata key and value, for "never appears" checks.
        var fullText: String {
            ([label, message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let storage = Mutex<[Line]>([])

    var lines: [Line] { storage.withLock { $0 } }

    func append(_ line: Line) { storage.withLock { $0.append(line) } }

    /// A logger whose lines (at `level` and above) land here.
    func logger(level: Logger.Level = .info) -> Logger {
        Logger(label: "til-test") { label in
            var handler = CapturingLogHandler(label: label, capture: self)
            handler.logLevel = level
            return handler
        }
    }
}

/// The `LogHandler` behind `LogCapture.logger`.
struct CapturingLogHandler: LogHandler {
    let label: String
    let capture: LogCapture
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        capture.append(LogCapture.Line(
            label: label, level: event.level, message: event.message.description,
            metadata: merged.mapValues { "\($0)" }))
    }
}
