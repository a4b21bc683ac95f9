import Foundation

/// Columns padded to their widest cell, two spaces apart; the last column is not padded, and
/// every line ends in a line feed. Every cell is escaped first (`TerminalText`): what is
/// measured is what is printed, and no cell can drive the terminal. The tables of `til` and of
/// `til-server users list`.
public struct Table: Sendable {
    public let headers: [String]
    public let rows: [[String]]

    public init(headers: [String], rows: [[String]]) {
        self.headers = headers
        self.rows = rows
    }

    public var text: String {
        let all = ([headers] + rows).map { $0.map(TerminalText.escaped) }
        let widths = headers.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { cells in
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
