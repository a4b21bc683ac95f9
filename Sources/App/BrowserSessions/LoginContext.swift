/// What a login page knows of where it leads: the OAuth client it signs in for (named on the
/// page) and the page's CSP, whose `form-action` must let the login's redirects reach that
/// client. Plain `/login` has neither.
struct LoginContext: Sendable {
    var clientName: String?
    var policy = ContentSecurityPolicy()

    static let plain = LoginContext()
}
