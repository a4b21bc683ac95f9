import Foundation
import XCTest

/// The Makefile as a newcomer meets it: `make help` lists every target, and `make install`
/// puts `til` and `til-server` under `PREFIX` (/usr/local as root, else ~/.local).
final class MakefileTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `make ARGUMENTS` in the repository, its standard output (fails the test on a non-zero exit).
    private func make(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["make", "--no-print-directory", "-s"] + arguments
        process.currentDirectoryURL = Self.root
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "make \(arguments.joined(separator: " "))")
        return String(decoding: data, as: UTF8.self)
    }

    func testHelpListsEveryTarget() throws {
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let targets = makefile.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: /([a-z][a-z0-9-]*):(?!=).*/).map { String($0.output.1) }
        }
        XCTAssertTrue(Set(targets).isSuperset(of: ["install", "routes", "test", "test-tsan", "fuzz", "readme-check", "bench"]))
        let listed = Set(try make(["help"]).split(separator: "\n").compactMap { line in
            line.prefixMatch(of: /make ([a-z][a-z0-9-]*)\s/).map { String($0.output.1) }
        })
        for target in targets {
            XCTAssertTrue(listed.contains(target), "`make help` does not list `\(target)`")
        }
    }

    func testInstallGoesUnderPrefix() throws {
        let prefix = try make(["--eval", "print-prefix: ; @echo $(PREFIX)", "print-prefix"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        XCTAssertEqual(prefix, getuid() == 0 ? "/usr/local" : "\(home)/.local")

        let plan = try make(["-n", "install", "PREFIX=/opt/til-test"])
        XCTAssertTrue(plan.contains("swift build -c release"), plan)
        XCTAssertTrue(plan.contains(#"install -d "/opt/til-test/bin""#), plan)
        XCTAssertTrue(plan.contains(#""$bin/til" "$bin/til-server" "/opt/til-test/bin/""#), plan)
    }
}
