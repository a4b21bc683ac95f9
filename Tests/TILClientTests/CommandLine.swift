import Foundation
import WebTesting
import XCTest

/// Runs the `til` binary (built beside the tests) as a child process with an environment of
/// its own: the server's URL, and a config folder of this test alone.
struct CommandLine {
    let binary: URL
    let environment: [String: String]
    /// The test's config folder (`XDG_CONFIG_HOME`); `til` keeps its tokens in `til/` under it.
    let configHome: URL

    init(server: URL, file: String = #filePath) throws {
        binary = try Self.binaryURL(file: file)
        configHome = FileManager.default.temporaryDirectory.appendingPathComponent("til-cli-\(UUID().uuidString)")
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": configHome.path, "XDG_CONFIG_HOME": configHome.path,
            "TIL_SERVER": server.absoluteString,
        ]
    }

    var credentialsFile: URL { configHome.appendingPathComponent("til/credentials.json") }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        func json<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONDecoder().decode(type, from: Data(stdout.utf8))
        }
    }

    /// `til arguments...`, with `stdin` as its input; waits (at most 30 s) for it to end.
    func run(_ arguments: String..., stdin: String = "", environment extra: [String: String] = [:]) async throws -> Result {
        try await run(arguments, stdin: stdin, environment: extra)
    }

    func run(_ arguments: [String], stdin: String = "", environment extra: [String: String] = [:]) async throws -> Result {
        let (binary, environment) = (binary, environment.merging(extra) { _, new in new })
        return try await onThread {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("til-run-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let (input, output, errors) = (folder.appendingPathComponent("in"), folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
            try Data(stdin.utf8).write(to: input)
            try Data().write(to: output)
            try Data().write(to: errors)
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = environment
            process.standardInput = try FileHandle(forReadingFrom: input)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return Result(
                status: process.terminationStatus, stdout: try String(contentsOf: output, encoding: .utf8),
                stderr: try String(contentsOf: errors, encoding: .utf8))
        }
    }

    func removeConfig() {
        try? FileManager.default.removeItem(at: configHome)
    }

    /// `til` in the build folder: beside the test bundle, else `<package>/.build/debug`.
    static func binaryURL(file: String) throws -> URL {
        var candidates = [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("til")]
        if let executable = Bundle.main.executableURL {
            candidates.insert(executable.deletingLastPathComponent().appendingPathComponent("til"), at: 0)
        }
        let root = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/til"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("til not built (run `swift build --build-tests`); looked at \(candidates.map(\.path))")
        }
        return found
    }
}

/// Asserts a failed command: its exit code, and one line on stderr that starts with `prefix`.
func assertFails(
    _ result: CommandLine.Result, status: Int32, stderrPrefix prefix: String, file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
    XCTAssertTrue(result.stderr.hasPrefix(prefix), result.stderr, file: file, line: line)
    XCTAssertEqual(result.stderr.filter(\.isNewline).count, 1, "one line: \(result.stderr)", file: file, line: line)
    XCTAssertEqual(result.stdout, "", file: file, line: line)
}
