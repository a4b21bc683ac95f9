import Foundation

/// A command-line program a test drives (curl, openssl, python3), found on `PATH`, run to its
/// end with a time limit (`timeout` from coreutils), its output and errors captured together.
public struct ExternalTool: Sendable {
    /// Where the program was found.
    public let path: String

    /// The program named `name` on `PATH`, or nil when it is not installed (the test skips).
    public init?(_ name: String) {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = searchPath.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else { return nil }
        path = found.path
    }

    /// The program at `path`: one of this package's own executables, found by the test.
    public init(atPath path: String) {
        self.path = path
    }

    /// Runs with `arguments` (killed after `timeLimit`); its exit status and combined output.
    public func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, timeLimit: Duration = .seconds(20)
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=2", "\(timeLimit.components.seconds)", path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
