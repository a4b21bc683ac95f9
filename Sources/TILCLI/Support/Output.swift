import Foundation

/// Prints results: aligned tables for people, JSON (`--json`) for scripts. Written straight
/// to the file descriptors, unbuffered, so stdout and stderr interleave as they happened.
struct Output {
    let json: Bool

    /// `rows` as a table, or the values as a JSON array.
    func list<Row: TableRow>(_ rows: [Row]) throws {
        if json { return try printJSON(rows) }
        write(Table(headers: Row.headers, rows: rows.map(\.cells)).text)
    }

    /// One value: a one-row table, or a JSON object.
    func one<Row: TableRow>(_ row: Row) throws {
        if json { return try printJSON(row) }
        try list([row])
    }

    /// A confirmation for people; nothing in JSON mode (the exit code says it all).
    func done(_ message: String) {
        if !json { line(message) }
    }

    /// A note that is not part of the result (more pages remain, say): on stderr.
    func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    func line(_ text: String) {
        write(text + "\n")
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// Columns padded to their widest cell; the last column is not padded.
struct Table {
    let headers: [String]
    let rows: [[String]]

    var text: String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { cells in
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}

/// A value that prints as a table row (and as its own JSON).
protocol TableRow: Encodable {
    static var headers: [String] { get }
    var cells: [String] { get }
}
