import Glibc
public import Logging
import Synchronization

/// The swift-log handler of every TIL process: each event becomes one `Logfmt` line, written
/// to standard error whole (one `write` under a lock, so lines from many threads never mix).
///
/// ```swift
/// LoggingSystem.bootstrap { LogfmtLogHandler(label: $0) }
/// ```
public struct LogfmtLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: LogOutput

    public init(label: String, output: LogOutput = .standardError) {
        self.label = label
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        if let error = event.error, merged["error"] == nil { merged["error"] = "\(error)" }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        output.write(Logfmt.line(
            time: now, level: event.level.rawValue, logger: label, message: event.message.description,
            metadata: merged.mapValues { "\($0)" }))
    }
}

/// Where a `LogfmtLogHandler` puts its lines (each without its line feed).
public struct LogOutput: Sendable {
    let write: @Sendable (String) -> Void

    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Standard error, a line and its line feed in one `write` (more only if the kernel takes
    /// part of it), one line at a time.
    public static let standardError = LogOutput { line in
        var text = line
        text.append("\n")
        text.withUTF8 { bytes in
            standardErrorLock.withLock { _ in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return  // nowhere to log that logging failed
                    }
                }
            }
        }
    }
}

/// Serialises the lines of every handler of the process.
private let standardErrorLock = Mutex(())
