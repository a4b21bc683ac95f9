public import Logging
import Synchronization
import Web

/// Keeps the lines a `LogfmtLogHandler` writes, as text: the bytes `til-server` would put on
/// stderr, for tests that read lines as an operator's tools would (`LogfmtReader`).
public final class LogfmtCapture: Sendable {
    private let storage = Mutex<[String]>([])

    public init() {}

    /// Every line so far, without line feeds.
    public var lines: [String] { storage.withLock { $0 } }

    /// The lines joined as they would be in a file.
    public var text: String { lines.map { $0 + "\n" }.joined() }

    /// A logger whose lines (at `level` and above) land here.
    public func logger(label: String = "til", level: Logger.Level = .info) -> Logger {
        Logger(label: label) { label in
            var handler = LogfmtLogHandler(label: label, output: LogOutput { line in self.storage.withLock { $0.append(line) } })
            handler.logLevel = level
            return handler
        }
    }
}
