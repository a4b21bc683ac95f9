import Foundation
import Terminal

/// Prints results: aligned tables for people, JSON (`--json`) for scripts. Written straight
/// to the file descriptors, unbuffered, so stdout and stderr interleave as they happened.
/// Everything for people — tables, lines, notes — goes through `TerminalText`, so no value a
/// server sent reaches the terminal as a control sequence.
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
        FileHandle.standardError.write(Data((TerminalText.escaped(message) + "\n").utf8))
    }

    /// Something a person should know before going on, in JSON mode too: one line on stderr.
    func warn(_ message: String) {
        note("til: warning: " + message)
    }

    func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        write(String(decoding: try encoder.encode(value), as: UTF8.self) + "\n")
    }

    /// One line for people.
    func line(_ text: String) {
        write(TerminalText.escaped(text) + "\n")
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// A value that prints as a table row (and as its own JSON).
protocol TableRow: Encodable {
    static var headers: [String] { get }
    var cells: [String] { get }
}
