import Web

/// The account page's sections for second factors until their services land: each says what
/// it will hold, so the page's outline is already the final one.
enum SecondFactorPlaceholders {
    static let totp: HTML = """
        <section aria-labelledby="totp-heading">
        <h2 id="totp-heading">Authenticator app</h2>
        <p class="hint">Two-step sign-in with a code from an authenticator app is not available on this server yet.</p>
        </section>
        """

    static let passkeys: HTML = """
        <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p class="hint">Signing in with a passkey is not available on this server yet.</p>
        </section>
        """
}
