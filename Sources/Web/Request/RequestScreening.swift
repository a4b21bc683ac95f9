/// What every request must pass before it is routed: input that no handler or authenticator
/// should ever have to defend against is refused once, here, with a 400 that says why.
enum RequestScreening {
    /// The error to answer `request` with, or nil when it may be routed.
    static func rejection(of request: Request) -> Abort? {
        // Two credentials leave "which one counts?" to whoever reads the header first; a
        // proxy and the app could disagree. Refuse instead of letting the first one win.
        if request.headers.values(for: "Authorization").count > 1 {
            return Abort(.badRequest, reason: "Send at most one Authorization header.")
        }
        return nil
    }
}
