public import Logging

extension Logger {
    /// A logger for tests that writes only lines at `level` and above (critical by default),
    /// so a passing run prints nothing but the test results. Pass a `LogCapture`'s logger
    /// instead when a test reads the lines.
    public static func quiet(_ label: String = "test", level: Logger.Level = .critical) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }
}
