import Foundation
import WebTesting
import XCTest

/// One `til-server` command run to its end as a child process, as an operator would run it:
/// its exit status, and stdout and stderr apart (a failure must be one line on stderr).
struct TILServerRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Runs `til-server arguments` with exactly `environment` (nothing inherited), `input` on
    /// stdin (else /dev/null: no terminal), killed after `timeLimit`.
    /// `binary` names another executable of the package (`til`).
    static func run(
        _ arguments: [String], environment: [String: String], input: String? = nil, timeLimit: Duration = .seconds(60),
        binary name: String = "til-server"
    ) async throws -> TILServerRun {
        try await run(arguments, environment: environment, inputBytes: input.map { Array($0.utf8) }, timeLimit: timeLimit, binary: name)
    }

    /// `run` with stdin given as bytes, which need not be UTF-8.
    static func run(
        _ arguments: [String], environment: [String: String], inputBytes input: [UInt8]?, timeLimit: Duration = .seconds(60),
        binary name: String = "til-server"
    ) async throws -> TILServerRun {
        let binary = try ServerProcess.binaryURL(named: name)
        return try await onThread {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("til-server-run-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let (out, err) = (directory.appendingPathComponent("stdout"), directory.appendingPathComponent("stderr"))
            for file in [out, err] where !FileManager.default.createFile(atPath: file.path, contents: nil) {
                throw ServerProcessError.noLog(file.path)
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["--kill-after=2", "\(timeLimit.components.seconds)", binary.path] + arguments
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            let stdin = Pipe()
            process.standardInput = input == nil ? FileHandle.nullDevice : stdin
            try process.run()
            if let input {
                stdin.fileHandleForWriting.write(Data(input))
                try stdin.fileHandleForWriting.close()
            }
            process.waitUntilExit()
            return TILServerRun(
                status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                stderr: try String(contentsOf: err, encoding: .utf8))
        }
    }

    /// The environment of a command on the test database (skips without one): testing, cheap
    /// bcrypt, `settings` on top (a nil value removes a variable).
    static func testEnvironment(_ settings: [String: String?] = [:]) throws -> [String: String] {
        var environment = try ServerProcess.testEnvironment(["BCRYPT_COST": "4"])
        for (name, value) in settings { environment[name] = value }
        return environment
    }

    /// The stderr lines that are not log lines (logfmt records start with `time=`).
    var failureLines: [String] {
        stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("time=") }
    }

    /// Asserts a failure: `status`, and exactly one line `til-server: …` on stderr containing
    /// every one of `fragments`.
    func assertFailure(_ status: Int32, mentioning fragments: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(self.status, status, "stdout: \(stdout)\nstderr: \(stderr)", file: file, line: line)
        XCTAssertEqual(failureLines.count, 1, stderr, file: file, line: line)
        XCTAssertTrue(failureLines.first?.hasPrefix("til-server: ") == true, stderr, file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(stderr.contains(fragment), "'\(fragment)' missing from: \(stderr)", file: file, line: line)
        }
    }
}
