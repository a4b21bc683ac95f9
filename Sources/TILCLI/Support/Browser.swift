import Foundation

/// `$BROWSER`, the way `gh` and `git web--browse` use it: a command (it may hold arguments, as
/// with `xdg-open`'s) given the URL to open, not waited for — a browser may stay open as long
/// as it likes.
enum Browser {
    /// Opens `url` with `$BROWSER`; false when it is not set (the caller prints the URL).
    @discardableResult
    static func open(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment, output: Output) -> Bool {
        guard let browser = environment["BROWSER"], !browser.isEmpty else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec $BROWSER \"$0\"", url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            output.warn("could not run $BROWSER (\(browser)): \(error.localizedDescription)")
        }
        return true
    }
}
