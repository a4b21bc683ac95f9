import Web

/// The parameters of an authorization request, from the query of a GET or the form of a POST
/// (handled alike), each allowed once (RFC 6749 §3.1) and within its size. They are carried
/// through the login and consent pages as sent, and checked afresh at every step.
struct AuthorizationParameters: Sendable {
    /// Every name and value, in the order sent, without TIL's own form fields.
    let pairs: [(name: String, value: String)]

    /// The fields of TIL's forms, never part of the request they carry.
    static let formFields: Set<String> = ["csrf_token", "decision"]
    /// At most this many parameters, and `resource` values.
    static let maxCount = 32
    static let maxResources = 8

    init(_ pairs: [(name: String, value: String)]) {
        self.pairs = pairs.filter { !Self.formFields.contains($0.name) }
    }

    /// A GET's query, or a POST's form (parsed once); a POST with another body is a 400 page.
    init(of request: Request) throws {
        guard request.method == .post else { self.init(request.query.pairs); return }
        guard let form = request.form else {
            throw Abort(.badRequest, reason: "An authorization request sent by POST must be form-encoded.")
        }
        // As a GET's query is screened before routing: libpq would cut a value at a NUL.
        guard form.pairHoldingNUL == nil else { throw Abort(.badRequest, reason: "A form field must not contain NUL.") }
        self.init(form.pairs)
    }

    /// Every value of `name`.
    func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// The one value of `name`: nil when absent, `.duplicated` when sent more than once.
    func single(_ name: String) -> Single {
        let values = all(name)
        switch values.count {
        case 0: return .absent
        case 1: return .value(values[0])
        default: return .duplicated
        }
    }

    enum Single: Equatable {
        case absent
        case value(String)
        case duplicated

        var value: String? { if case .value(let text) = self { text } else { nil } }
    }

    /// The request again, as a path on this server: where a login returns to. `prompt=login`
    /// and `max_age=0` are left out (`login` out of a list of prompts), since the login they
    /// asked for is the one happening; a `max_age` above 0 holds after it.
    var returnPath: String {
        let kept = pairs.compactMap { pair -> (name: String, value: String)? in
            if pair.name == "max_age", pair.value == "0" { return nil }
            guard pair.name == "prompt" else { return pair }
            let others = pair.value.split(separator: " ").filter { $0 != "login" }
            return others.isEmpty ? nil : (pair.name, others.joined(separator: " "))
        }
        return Self.returnPathPrefix + QueryEncoding.encode(kept)
    }

    /// The request a login's `return_to` carries back (`returnPath`'s reverse); nil when it
    /// returns elsewhere.
    init?(returnTo: String) {
        guard returnTo.hasPrefix(Self.returnPathPrefix) else { return nil }
        self.init(QueryParameters(returnTo.dropFirst(Self.returnPathPrefix.count)).pairs)
    }

    private static let returnPathPrefix = OAuthEndpoints.authorization + "?"
}
