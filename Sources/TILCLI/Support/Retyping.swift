import TILClient

/// A code typed at the terminal is asked again when the server refuses it as mistyped or wrong
/// (400, 401, 403: a person misread the app, or the step turned over), up to three tries, each
/// refusal's reason shown. A code given on the command line is tried once: a script gets the
/// refusal and its exit code.
enum Retyping {
    static let tries = 3

    static func attempt<Answer, Result>(
        asking ask: () throws -> Answer, output: Output, _ send: (Answer) async throws -> Result
    ) async throws -> Result {
        var tried = 1
        while true {
            let answer = try ask()
            do {
                return try await send(answer)
            } catch TILError.server(let status, let reason, _) where [400, 401, 403].contains(status) && tried < tries {
                output.note("\(reason) Try again.")
                tried += 1
            }
        }
    }
}
