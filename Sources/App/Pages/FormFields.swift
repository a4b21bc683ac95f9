import Web

/// The fields of a page's form post or of a page's query, each read once: a field sent twice
/// is a 400 (which one would count?), and so is one past its size.
struct FormFields: Sendable {
    let parameters: QueryParameters

    /// A form post's fields; 400 unless the body is form-encoded.
    init(form request: Request) throws {
        guard let form = request.form else {
            throw Abort(.badRequest, reason: "The form must be sent as application/x-www-form-urlencoded.")
        }
        // libpq would cut a value at a NUL (a username `admin%00x` looked up as `admin`).
        guard form.pairHoldingNUL == nil else { throw Abort(.badRequest, reason: "A form field must not contain NUL.") }
        parameters = form
    }

    /// The query's parameters.
    init(query request: Request) {
        parameters = request.query
    }

    /// The one value of `name`, nil when absent.
    func single(_ name: String, maxBytes: Int = 4096) throws -> String? {
        let values = parameters.all(name)
        guard values.count <= 1 else { throw Abort(.badRequest, reason: "The field \(name) was sent more than once.") }
        guard let value = values.first else { return nil }
        guard value.utf8.count <= maxBytes else { throw Abort(.badRequest, reason: "The field \(name) is too long.") }
        return value
    }

    /// Every value of `name` (checkboxes sharing it), at most `maxCount`, each at most `maxBytes`.
    func every(_ name: String, maxCount: Int, maxBytes: Int = 4096) throws -> [String] {
        let values = parameters.all(name)
        guard values.count <= maxCount else { throw Abort(.badRequest, reason: "The field \(name) was sent too many times.") }
        guard values.allSatisfy({ $0.utf8.count <= maxBytes }) else { throw Abort(.badRequest, reason: "The field \(name) is too long.") }
        return values
    }
}
