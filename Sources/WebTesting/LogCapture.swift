public import Logging
import Synchronization

/// Keeps every log line an app or a server writes, so tests can read the audit trail, the
/// access log or the error lines.
///
/// ```swift
/// let capture = LogCapture()
/// let app = Application(environment: .testing, logger: capture.logger())
/// ...
/// XCTAssertEqual(capture.lines.filter { $0.level == .error }.count, 1)
/// ```
public final class LogCapture: Sendable {
    public struct Line: Sendable {
        public var label: String
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]

        /// The message and every metadata key and value, for "never appears" checks.
        public var fullText: String {
            ([label, message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let storage = Mutex<[Line]>([])

    public init() {}

    public var lines: [Line] { storage.withLock { $0 } }

    func append(_ line: Line) { storage.withLock { $0.append(line) } }

    /// A logger whose lines (at `level` and above) land here.
    public func logger(level: Logger.Level = .info) -> Logger {
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
