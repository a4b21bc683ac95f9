import Foundation
import XCTest
@testable import App

/// The README's table of environment variables and the reader's declarations agree, both ways:
/// every declared variable has a row, every row is declared, and each row's default and
/// accepted values are the declaration's, its meaning starting with the declared one.
final class EnvironmentTableTests: XCTestCase {
    struct Row {
        let name: String
        let defaultValue: String
        let accepts: String
        let meaning: String
    }

    func testTheREADMETableMatchesTheDeclaredVariables() throws {
        let rows = try Self.readmeRows()
        let declared = Dictionary(uniqueKeysWithValues: EnvironmentVariable.allCases.map { ($0.name, $0) })
        for row in rows where declared[row.name] == nil {
            XCTFail("the README's row \(row.name) is not a declared EnvironmentVariable")
        }
        for variable in EnvironmentVariable.allCases {
            let expected = Self.row(for: variable)
            guard let row = rows.first(where: { $0.name == variable.name }) else {
                XCTFail("the README's table lacks \(variable.name); add:\n\(expected)")
                continue
            }
            let declaration = variable.declaration
            let matches = row.defaultValue == "\(declaration.defaultValue)" && row.accepts == "\(declaration.accepts)"
                && row.meaning.hasPrefix(declaration.meaning)
            XCTAssertTrue(matches, "the README's row for \(variable.name) differs from its declaration; expected:\n\(expected)")
        }
        XCTAssertEqual(rows.map(\.name), EnvironmentVariable.allCases.map(\.name), "the README lists them in declaration order")
    }

    struct UnreadableRow: Error {
        let line: String
    }

    /// The row a declaration makes, for pasting.
    static func row(for variable: EnvironmentVariable) -> String {
        let declaration = variable.declaration
        return "| `\(variable.name)` | \(declaration.defaultValue) | \(declaration.accepts) | \(declaration.meaning) |"
    }

    /// The rows of the first table under `## Configuration`.
    static func readmeRows(file: String = #filePath) throws -> [Row] {
        let root = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let section = try XCTUnwrap(lines.firstIndex(of: "## Configuration"), "README.md has no ## Configuration")
        let table = lines[section...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        XCTAssertEqual(table.first, "| variable | default | accepts | meaning |")
        return try table.dropFirst(2).map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            XCTAssertEqual(cells.count, 4, String(line))
            guard cells.count == 4, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else {
                throw UnreadableRow(line: String(line))
            }
            return Row(name: String(cells[0].dropFirst().dropLast()), defaultValue: cells[1], accepts: cells[2], meaning: cells[3])
        }
    }
}
