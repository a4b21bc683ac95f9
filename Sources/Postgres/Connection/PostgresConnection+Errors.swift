import CLibPQ

/// What went wrong, in PostgresError's terms: the server's own error (SQLSTATE and message) when
/// the connection is healthy, `.closed` when the connection itself broke.
extension PostgresConnection {
    var libpqMessage: String {
        guard let handle else { return "connection closed" }
        return String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines
    }

    /// The server's error for `result`, or `.closed` when the connection itself broke.
    func failure(of result: OpaquePointer?) -> PostgresError {
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            return PostgresError(.closed, message: "Connection lost: \(libpqMessage)")
        }
        let field = { (code: UInt8) -> String? in
            guard let result, let value = PQresultErrorField(result, Int32(code)) else { return nil }
            return String(cString: value)
        }
        return PostgresError(
            .server, sqlState: field(UInt8(ascii: "C")).map(SQLState.init), constraint: field(UInt8(ascii: "n")),
            message: field(UInt8(ascii: "M")) ?? libpqMessage)
    }

    /// libpq could not write a statement: the connection was already broken (a backend that
    /// is gone cannot run it). A network cut in the middle of this one small write is the only
    /// way the server could have seen part of it. Closes the connection.
    func unsent() -> PostgresError {
        var error = failure(of: nil)
        error.neverSent = true
        close()
        return error
    }
}

extension String {
    /// libpq's messages end in a newline (sometimes a space too).
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == " " { text.removeLast() }
        return text
    }
}
